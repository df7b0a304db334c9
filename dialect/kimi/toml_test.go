package kimi

import (
	"reflect"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"

	"github.com/agenthooks/agenthooks/dialect"
)

const userConfig = `default_model = "local/m"   # the model

[providers.local]
type = "openai"
base_url = "http://127.0.0.1:9/v1"

[[hooks]]
event = "Notification"
matcher = "task\\.completed"
command = "notify-send done"

[models."local/m"]
provider = "local"
model = "m"
`

func entries() []dialect.InstallEntry {
	return Agent.InstallEntries("guard bash --fail-closed")
}

// TestEditInstallUninstall: install adds one marked [[hooks]] table per entry after the user's
// settings, a second install changes nothing, uninstall gives back the file byte for byte, and
// Kimi Code's own decoding sees the user's hook and install's.
func TestEditInstallUninstall(t *testing.T) {
	t.Parallel()
	out, changes, err := Edit([]byte(userConfig), "agenthooks", entries(), false)
	if err != nil || len(changes) != len(entries()) {
		t.Fatalf("install: %v, %v", changes, err)
	}
	if !strings.HasPrefix(string(out), userConfig+"\n[[hooks]] "+Mark+"\nevent = \"PreToolUse\"\nmatcher = \"Bash\"\ncommand = \"agenthooks guard bash --fail-closed\"\n\n") {
		t.Errorf("install wrote:\n%s", out)
	}
	var doc struct {
		DefaultModel string `toml:"default_model"`
		Hooks        []Hook
	}
	if err := toml.Unmarshal(out, &doc); err != nil || doc.DefaultModel != "local/m" || len(doc.Hooks) != 1+len(entries()) || doc.Hooks[0].Command != "notify-send done" {
		t.Fatalf("the file reads as %+v (%v)", doc, err)
	}
	again, changes, err := Edit(out, "agenthooks", entries(), false)
	if err != nil || len(changes) != 0 || string(again) != string(out) {
		t.Errorf("second install: %v %v", changes, err)
	}
	back, changes, err := Edit(out, "/opt/bin/agenthooks", entries(), true)
	if err != nil || len(changes) != len(entries()) || string(back) != userConfig {
		t.Errorf("uninstall (%v, %v) gave:\n%s", changes, err, back)
	}
	// A program that moved: install replaces its tables with the new program's.
	moved, changes, err := Edit(out, "/usr/local/bin/agenthooks", entries(), false)
	if err != nil || len(changes) != 2*len(entries()) || strings.Contains(string(moved), `"agenthooks guard`) {
		t.Errorf("install with a new program (%v, %v):\n%s", changes, err, moved)
	}
}

// TestEditEmptyAndRefusals: install into a new file, and a file it cannot edit safely is an
// error with nothing written.
func TestEditEmptyAndRefusals(t *testing.T) {
	t.Parallel()
	out, _, err := Edit(nil, "agenthooks", entries(), false)
	if err != nil || !strings.HasPrefix(string(out), "[[hooks]] "+Mark+"\n") || !strings.HasSuffix(string(out), "Edit\"\ncommand = \"agenthooks guard bash --fail-closed\"\n") || strings.Contains(string(out), "fail_mode") {
		t.Errorf("new file (%v):\n%s", err, out)
	}
	for name, in := range map[string]string{
		"invalid TOML":     "default_model = \n",
		"hooks not tables": "hooks = \"no\"\n",
		"inline hooks":     "hooks = [{event = \"Stop\", command = \"x\"}]\n",
	} {
		if out, _, err := Edit([]byte(in), "agenthooks", entries(), false); err == nil {
			t.Errorf("%s: no error, wrote:\n%s", name, out)
		}
	}
	if _, _, err := Edit([]byte("default_model = \n"), "agenthooks", entries(), false); err == nil || !strings.HasPrefix(err.Error(), "1:") {
		t.Errorf("invalid TOML error %v, want its position", err)
	}
}

func TestQuote(t *testing.T) {
	t.Parallel()
	for _, s := range []string{`plain`, `say "hi" \ bye`, "tab\there\nnew\x01line"} {
		var v struct{ S string }
		if err := toml.Unmarshal([]byte("s = "+Quote(s)), &v); err != nil || v.S != s {
			t.Errorf("Quote(%q) = %s reads as %q (%v)", s, Quote(s), v.S, err)
		}
	}
}

// TestPayloadBothWays: a file tool's path is Claude Code's file_path and back, tool_call_id is
// tool_use_id and tool_output tool_response; Bash's input is the same in both.
func TestPayloadBothWays(t *testing.T) {
	t.Parallel()
	in := `{"hook_event_name":"PreToolUse","client_type":"kimi_code_cli","tool_name":"Write","tool_input":{"path":"a.txt","content":"x"}}`
	ev, out, _, err := ToClaude("PreToolUse", []byte(in))
	if err != nil || ev != "PreToolUse" || !strings.Contains(string(out), `"file_path":"a.txt"`) || strings.Contains(string(out), `"path"`) {
		t.Fatalf("to Claude Code: %s %s (%v)", ev, out, err)
	}
	back, _, err := FromClaude("PreToolUse", out)
	if err != nil || !strings.Contains(string(back), `"path":"a.txt"`) || strings.Contains(string(back), "file_path") {
		t.Errorf("back: %s (%v)", back, err)
	}
	// What 2.1.0 really sends after a Bash call (e2e TestKimiPayloads): the call's id as
	// tool_call_id and the result as the string tool_output.
	post := `{"hook_event_name":"PostToolUse","client_type":"kimi_code_cli","tool_name":"Bash","tool_input":{"command":"ls"},"tool_call_id":"call_00","tool_output":"a.txt"}`
	_, out, _, err = ToClaude("PostToolUse", []byte(post))
	if err != nil || !strings.Contains(string(out), `"tool_use_id":"call_00"`) || !strings.Contains(string(out), `"tool_response":{"interrupted":false,"stderr":"","stdout":"a.txt"}`) || strings.Contains(string(out), "tool_output") {
		t.Errorf("PostToolUse to Claude Code: %s (%v)", out, err)
	}
	back, _, err = FromClaude("PostToolUse", out)
	if err != nil || !strings.Contains(string(back), `"tool_call_id":"call_00"`) || !strings.Contains(string(back), `"tool_output":"a.txt"`) || strings.Contains(string(back), "tool_response") || strings.Contains(string(back), "tool_use_id") {
		t.Errorf("PostToolUse back: %s (%v)", back, err)
	}
	if _, out, _, err := ToClaude("PostToolUse", []byte(`{"tool_name":"Read","tool_input":{"path":"a"},"tool_output":"1\thello"}`)); err != nil || !strings.Contains(string(out), `"tool_response":"1\thello"`) {
		t.Errorf("a Read's output: %s (%v)", out, err)
	}
	if ev, out, _, err := ToClaude("SessionHeartbeat", []byte(`{"uptime_ms":1}`)); err != nil || ev != "" || string(out) != `{"uptime_ms":1}` {
		t.Errorf("an event Claude Code has not: %q %s %v", ev, out, err)
	}
	if _, out, _, err := ToClaude("UserPromptSubmit", []byte(`{"prompt":[{"type":"text","text":"a"},{"type":"image_url"},{"type":"text","text":"b"}],"is_steer":false}`)); err != nil || !strings.Contains(string(out), `"prompt":"a\nb"`) {
		t.Errorf("a prompt of content parts: %s (%v)", out, err)
	}
	if _, _, _, err := ToClaude("Nope", []byte(`{}`)); err == nil {
		t.Error("an unknown event translated")
	}
	if !Agent.Detect(dialect.Probe{HookEvent: "PreToolUse", ClientType: "kimi_code_cli"}) || Agent.Detect(dialect.Probe{HookEvent: "PreToolUse", Tool: "Bash"}) {
		t.Error("Detect does not tell Kimi Code's payload by its client_type")
	}
}

// TestRenderSettings: convert's hooks in Claude Code's shape become [[hooks]] tables Kimi Code
// loads, carrying no install mark; what Kimi Code cannot run is said.
func TestRenderSettings(t *testing.T) {
	t.Parallel()
	in := `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"echo done"}]}],"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"./x.sh","timeout":10,"failClosed":true},{"type":"http","url":"http://h"}]},{"matcher":"*","hooks":[{"type":"command","command":"all","timeout":9000}]}],"BeforeTool":[{"hooks":[{"type":"command","command":"y"}]}]}}`
	out, lost := RenderSettings([]byte(in))
	var doc struct{ Hooks []Hook }
	if err := toml.Unmarshal(out, &doc); err != nil || len(doc.Hooks) != 3 {
		t.Fatalf("%s: %v", out, err)
	}
	want := []Hook{{Event: "PreToolUse", Matcher: "Bash", Command: "./x.sh", Timeout: 10}, {Event: "PreToolUse", Command: "all"}, {Event: "Stop", Command: "echo done"}}
	for i, h := range want {
		if doc.Hooks[i] != h {
			t.Errorf("hook %d = %+v, want %+v", i, doc.Hooks[i], h)
		}
	}
	if strings.Contains(string(out), Mark) || strings.Contains(string(out), "fail_mode") || len(lost) != 4 {
		t.Errorf("out:\n%s\nlost %v", out, lost)
	}
}

// FuzzEdit: on any config.toml, Edit never panics; where install succeeds, a second install
// changes nothing and uninstall gives back a file that reads as the first but for agenthooks'
// own hooks.
func FuzzEdit(f *testing.F) {
	f.Add([]byte(userConfig))
	f.Add([]byte(""))
	f.Add([]byte("a = 1\r\n[[hooks]]\r\nevent = \"Stop\"\r\ncommand = \"x\"\r\n"))
	f.Add([]byte("[[hooks]] # agenthooks\nevent = \"PreToolUse\"\nmatcher = \"Bash\"\ncommand = \"agenthooks guard bash --fail-closed\"\n"))
	f.Add([]byte("[x]\nv = \"\"\"\n[[hooks]]\n\"\"\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var before map[string]any
		if toml.Unmarshal(data, &before) != nil || strings.Contains(string(data), Mark) {
			_, _, _ = Edit(data, "agenthooks", entries(), false)
			return
		}
		out, _, err := Edit(data, "agenthooks", entries(), false)
		if err != nil {
			return
		}
		again, changes, err := Edit(out, "agenthooks", entries(), false)
		if err != nil || len(changes) != 0 || string(again) != string(out) {
			t.Fatalf("second install: %v %v", changes, err)
		}
		back, _, err := Edit(out, "agenthooks", entries(), true)
		if err != nil {
			t.Fatalf("uninstall: %v\n%s", err, out)
		}
		var after map[string]any
		if err := toml.Unmarshal(back, &after); err != nil || !reflect.DeepEqual(norm(before), norm(after)) {
			t.Fatalf("uninstall gave a file that reads otherwise (%v):\n%q\nfrom\n%q", err, back, data)
		}
	})
}

// norm is a decoded file without the hooks install takes for its own (an agenthooks guard or
// runner of its entries, written by an older install or by hand): uninstall takes those out.
func norm(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	if list, ok := m["hooks"].([]any); ok {
		var keep []any
		for _, v := range list {
			t, _ := v.(map[string]any)
			h := Hook{}
			h.Event, _ = t["event"].(string)
			h.Command, _ = t["command"].(string)
			if !installed(h, "agenthooks", entries()) {
				keep = append(keep, v)
			}
		}
		if len(keep) == 0 {
			delete(m, "hooks")
		} else {
			m["hooks"] = keep
		}
	}
	return m
}
