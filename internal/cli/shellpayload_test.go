package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestShellPayloadKeys: decode reads every field of shellPayload, by the key its json tag
// names, and no other.
func TestShellPayloadKeys(t *testing.T) {
	typ := reflect.TypeFor[shellPayload]()
	var tags []string
	for f := range typ.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		tags = append(tags, name)
		var pl shellPayload
		got := pl.field(name)
		want := reflect.ValueOf(&pl).Elem().FieldByIndex(f.Index).Addr().Interface()
		if got != want {
			t.Errorf("field(%q) = %T %p, want the address of %s", name, got, got, f.Name)
		}
	}
	keys := shellPayloadKeys[:]
	if !slices.Equal(slices.Sorted(slices.Values(tags)), slices.Sorted(slices.Values(keys))) {
		t.Errorf("shellPayloadKeys = %q, the json tags are %q", keys, tags)
	}
}

// shellPayloadSeeds are payloads decode must read as Unmarshal does: every agent's golden
// payloads, and the shapes where the two could part (a key in another case, one given twice,
// null, a value of another type, data after the object, JSON that is not valid).
func shellPayloadSeeds(t testing.TB) [][]byte {
	files, err := filepath.Glob("../../dialect/testdata/payloads/*/*.json")
	if err != nil || len(files) < 50 {
		t.Fatalf("golden payloads: %d files, %v", len(files), err)
	}
	var seeds [][]byte
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, data)
	}
	for _, s := range []string{
		`{"tool_name":"Bash","tool_input":{"command":"ls"},"cwd":"/p","session_id":"s"}`,
		`{"TOOL_NAME":"Bash","tool_input":{"command":"rm -rf ~"}}`,
		`{"tool_name":"Read","Tool_Name":"Bash","tool_input":{"command":"rm -rf ~"}}`,
		`{"tool_input":{"command":"rm -rf ~"},"tool_input":{"command":"ls"}}`,
		`{"tool_input":{"command":"ls"},"tool_input":null}`,
		`{"workspace_roots":["/a","/b"],"workspace_roots":["/c"]}`,
		`{"tool_name":1}`, `{"workspace_roots":"/a"}`, `{"workspace_roots":[1]}`,
		`{"cwd":null,"command":"rm -rf /","timestamp":5,"turn_id":{"a":[1,2]}}`,
		`{"tool_name":"Bash"} {"tool_name":"Read"}`, `{"tool_name":"Bash"}x`, `{"tool_name":"Bash"`,
		`{"tool\u005fname":"Bash","extra":{"deep":[[[{"x":null}]]]},"n":1e999}`,
		`{"ſession_id":"s","tool_name":"Bash"}`, `{"hookEventName":"PreToolUse","hookeventname":"x"}`,
		`[]`, `null`, `"x"`, ``, `  {}  `, "{\"tool_name\":\"Ba\xffsh\"}",
		`{"tool_input":{"command":"a\"b\\c\/d\b\f\n\r\t","n":[0,-0,1.5,2e3,-1E+2,1e-2],"o":{"a":1,"a":2}}}`,
		`{"tool_input":{"n":01}}`, `{"tool_input":{"n":1.}}`, `{"tool_input":{"n":-}}`, `{"tool_input":{"n":.5}}`,
		`{"tool_input":{"n":1e}}`, `{"tool_input":[tru]}`, `{"tool_input":nul}`, `{"tool_input":{"a":1,}}`,
		`{"tool_input":[1,]}`, `{"tool_input":{"a" 1}}`, `{"x":"\q"}`, "{\"x\":\"a\tb\"}", `{"x":"\ud800"}`,
		`{"cwd":"a"`, `{"cwd":"a",}`, `{,}`, `{"cwd":null,"cwd":"b","cwd":null}`, `{"tool_name":true}`,
		`{"tool_input":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}`,
	} {
		seeds = append(seeds, []byte(s))
	}
	return seeds
}

func sameShellPayload(t *testing.T, data []byte) {
	t.Helper()
	var fast, slow shellPayload
	errFast := fast.decode(data)
	errSlow := json.Unmarshal(data, &slow)
	if (errFast == nil) != (errSlow == nil) || errFast != nil && errFast.Error() != errSlow.Error() {
		t.Fatalf("%q: decode's error %v, Unmarshal's %v", data, errFast, errSlow)
	}
	if !reflect.DeepEqual(fast, slow) {
		t.Fatalf("%q: decode read %+v, Unmarshal %+v", data, fast, slow)
	}
	// over a payload already read, as guardView decodes an agent's view over it
	base := shellPayload{Cwd: "/before", ToolInput: map[string]any{"command": "before"}, WorkspaceRoots: []string{"/w"}}
	fast, slow = base, base
	fast.WorkspaceRoots, slow.WorkspaceRoots = slices.Clone(base.WorkspaceRoots), slices.Clone(base.WorkspaceRoots)
	errFast, errSlow = fast.decode(data), json.Unmarshal(data, &slow)
	if (errFast == nil) != (errSlow == nil) || !reflect.DeepEqual(fast, slow) {
		t.Fatalf("%q over a payload: decode %+v (%v), Unmarshal %+v (%v)", data, fast, errFast, slow, errSlow)
	}
}

// TestScanKeysTakesCommonPayloads: decode's own reading takes the payloads agents send (Claude
// Code's Bash call with its timeout and description, a command with quotes, a backslash and a
// newline in it, text that is not ASCII), so that a guard process does not start encoding/json
// for them; what it takes is Unmarshal's reading.
func TestScanKeysTakesCommonPayloads(t *testing.T) {
	for _, s := range []string{
		`{"session_id":"s","transcript_path":"/tmp/t.jsonl","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"cd web && npm ci && npm run build -- --prod > build.log 2>&1"}}`,
		`{"session_id":"abc","transcript_path":"/home/u/.claude/projects/p/abc.jsonl","cwd":"/home/u/p","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git commit -m \"fix: a\\nb\"\necho done","description":"Commit — änderungen","timeout":120000,"run_in_background":false},"tool_use_id":"toolu_01"}`,
		` { "tool_input" : { "command" : "ls" , "x" : [ 1 , -2.5e-3 , true , null , { } , [ ] ] } } `,
	} {
		var pl, want shellPayload
		if !pl.scanKeys([]byte(s)) {
			t.Errorf("scanKeys does not take %s", s)
			continue
		}
		if err := json.Unmarshal([]byte(s), &want); err != nil || !reflect.DeepEqual(pl, want) {
			t.Errorf("%s: scanKeys read %+v, Unmarshal %+v (%v)", s, pl, want, err)
		}
	}
}

func TestShellPayloadDecodeAsUnmarshal(t *testing.T) {
	for _, data := range shellPayloadSeeds(t) {
		sameShellPayload(t, data)
	}
}

func FuzzShellPayloadDecode(f *testing.F) {
	for _, data := range shellPayloadSeeds(f) {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sameShellPayload(t, data)
	})
}

// BenchmarkShellPayloadDecode is decode's own cost in a warm process, beside Unmarshal's: a
// guard process pays Unmarshal's description of the struct on top, once.
func BenchmarkShellPayloadDecode(b *testing.B) {
	data := []byte(`{"session_id":"s","transcript_path":"/tmp/t.jsonl","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"cd web && npm ci"}}`)
	b.Run("decode", func(b *testing.B) {
		for b.Loop() {
			var pl shellPayload
			if err := pl.decode(data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("unmarshal", func(b *testing.B) {
		for b.Loop() {
			var pl shellPayload
			if err := json.Unmarshal(data, &pl); err != nil {
				b.Fatal(err)
			}
		}
	})
}
