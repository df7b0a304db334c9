package decide

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestMerge(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		answers []Answer
		mode    Mode
		want    Decision
	}{
		{"nothing", nil, MergeAll, Decision{}},
		{"deny beats ask beats allow", []Answer{
			{Index: 0, Permission: Allow, UserMessage: "ok"},
			{Index: 1, Permission: Ask, UserMessage: "sure?"},
			{Index: 2, Permission: Deny, UserMessage: "no", AgentMessage: "model no"},
			{Index: 4, Permission: Deny, UserMessage: "never"},
		}, MergeAll, Decision{Permission: Deny, UserMessage: "no\nnever", AgentMessage: "model no", DecidedBy: []int{2, 4}}},
		{"ask beats allow", []Answer{{Index: 0, Permission: Allow}, {Index: 1, Permission: Ask, UserMessage: "?"}},
			MergeAll, Decision{Permission: Ask, UserMessage: "?", DecidedBy: []int{1}}},
		{"no permission leaves none", []Answer{{Index: 0, Followup: "again"}, {Index: 1, Followup: " "}, {Index: 2, Followup: "more"}},
			MergeAll, Decision{Followup: "again\n\nmore"}},
		{"first answer alone", []Answer{{Index: 1, Permission: Allow, UserMessage: "first"}, {Index: 2, Permission: Deny}},
			MergeFirst, Decision{Permission: Allow, UserMessage: "first", DecidedBy: []int{1}}},
		{"last rewrite wins", []Answer{{Index: 0, UpdatedInput: json.RawMessage(`{"a":1}`)}, {Index: 1, UpdatedInput: json.RawMessage(`{"a":2}`)}},
			MergeAll, Decision{UpdatedInput: json.RawMessage(`{"a":2}`)}},
		{"env: higher priority stands; plugin paths unioned", []Answer{
			{Index: 0, Env: map[string]string{"A": "1"}, PluginPaths: []string{"/a"}},
			{Index: 1, Env: map[string]string{"A": "2", "B": "3"}, PluginPaths: []string{"/a", "/b"}},
		}, MergeAll, Decision{Env: map[string]string{"A": "1", "B": "3"}, PluginPaths: []string{"/a", "/b"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Merge(c.answers, c.mode); !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got  %+v\nwant %+v", got, c.want)
			}
		})
	}
}

func BenchmarkMerge(b *testing.B) {
	answers := make([]Answer, 16)
	for i := range answers {
		answers[i] = Answer{Index: i, Permission: []Permission{Allow, Ask, Deny}[i%3], UserMessage: "m"}
	}
	b.ReportAllocs()
	for b.Loop() {
		Merge(answers, MergeAll)
	}
}

func TestRewrites(t *testing.T) {
	a := func(perm Permission, in string) Answer {
		var raw json.RawMessage
		if in != "" {
			raw = json.RawMessage(in)
		}
		return Answer{Permission: perm, UpdatedInput: raw}
	}
	for _, c := range []struct {
		name    string
		answers []Answer
		want    bool
	}{
		{"none", []Answer{a(Allow, ""), a(Ask, "")}, false},
		{"one", []Answer{a(Allow, `{"command":"x"}`), a(Allow, "")}, false},
		{"same, spacing and key order aside", []Answer{a(Allow, `{"command":"x","t":1}`), a(Allow, `{ "t": 1, "command": "x" }`)}, false},
		{"different", []Answer{a(Allow, `{"command":"x"}`), a(Allow, `{"command":"y"}`)}, true},
		{"a deny's rewrite does not count", []Answer{a(Allow, `{"command":"x"}`), a(Deny, `{"command":"y"}`)}, false},
	} {
		if got := Rewrites(c.answers); got != c.want {
			t.Errorf("%s: Rewrites = %v, want %v", c.name, got, c.want)
		}
	}
}
