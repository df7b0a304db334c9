package scenario

import "testing"

func TestParse(t *testing.T) {
	t.Parallel()
	f, err := Parse("s.yaml", []byte(`
config: [hooks.json]
scenarios:
  - name: blocked
    event: beforeShellExecution
    payload: {command: "rm -rf /", cwd: /tmp}
    expect: {decision: deny, user_message: recursive}
  - agent: claude
    event: PreToolUse
    payload: '{"tool_name":"Bash","tool_input":{"command":"ls"}}'
    expect: {decision: none}
`))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Scenarios) != 2 || f.Scenarios[0].Agent != "cursor" {
		t.Fatalf("%+v", f)
	}
	b, _ := f.Scenarios[0].PayloadJSON()
	if string(b) != `{"command":"rm -rf /","cwd":"/tmp"}` {
		t.Fatalf("payload %s", b)
	}
	if d := f.Scenarios[0].Expect.Check("deny", "a recursive delete", "", "", ""); len(d) != 0 {
		t.Fatal(d)
	}
	if d := f.Scenarios[0].Expect.Check("allow", "", "", "", ""); len(d) != 2 {
		t.Fatal(d)
	}
	for _, bad := range []string{`scenarios: []`, `scenarios: [{event: x, expect: {decision: maybe}}]`,
		`scenarios: [{agent: vim, event: x, expect: {decision: deny}}]`, `scenarios: [{event: x, payload: [1], expect: {decision: deny}}]`,
		"scenarios:\n  - evnt: x"} {
		if _, err := Parse("bad.yaml", []byte(bad)); err == nil {
			t.Errorf("accepted %q", bad)
		}
	}
}

// FuzzParse: any bytes are read or refused without panic, and what is read gives a payload.
func FuzzParse(f *testing.F) {
	f.Add([]byte("scenarios:\n  - event: stop\n    expect: {decision: none}\n"))
	f.Add([]byte("config: [a]\nscenarios: [{event: x, payload: {a: [1, {b: c}]}, expect: {decision: deny}}]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Parse("fuzz.yaml", data)
		if err != nil {
			return
		}
		for i := range file.Scenarios {
			if _, err := file.Scenarios[i].PayloadJSON(); err != nil {
				t.Fatalf("a parsed scenario has no payload: %v", err)
			}
		}
	})
}
