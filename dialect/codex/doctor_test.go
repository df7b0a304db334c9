package codex

import (
	"os"
	"path/filepath"
	"testing"
)

// TestCodexHookHash: the keys and hashes are those codex 0.169.0 itself reported for this file
// (app-server's hooks/list: key and currentHash of each hook), so doctor reads a review as
// Codex does: the timeout filled in (600 s, at least 1), statusMessage kept, the matcher of Stop
// dropped, handler indices counted within each matcher group.
func TestCodexHookHash(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "hooks.json")
	data := `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"/usr/local/bin/agenthooks guard bash --format codex","timeout":30}]},` +
		`{"hooks":[{"type":"command","command":"agenthooks guard bash","statusMessage":"checking"},{"type":"command","command":"x y","timeout":0}]}],` +
		`"Stop":[{"matcher":"ignored","hooks":[{"type":"command","command":"agenthooks run --agent codex Stop"}]}]}}`
	if err := os.WriteFile(file, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(file)
	want := map[string]string{
		abs + ":pre_tool_use:0:0": "sha256:a76f040ec09c568d30622f8a417602ce1bd55aff922e164548c1abbe9b315f32",
		abs + ":pre_tool_use:1:0": "sha256:350dc212f62b200daa667d70fd9371a1b6daaa5e8ce5f7423bd8a1d5032e361d",
		abs + ":pre_tool_use:1:1": "sha256:65a013910392360bd11c4e90c17ca1ce664d8f755eb538a658951a7214ccc0dd",
		abs + ":stop:0:0":         "sha256:ab8721b139de1689b91dafc8e3d8c1e26d87b28dc3844cc576ebebfbec7975a1",
	}
	got := hooksOf(file)
	if len(got) != len(want) {
		t.Fatalf("got %d hooks, want %d: %+v", len(got), len(want), got)
	}
	for _, h := range got {
		if want[h.Key] != h.Hash {
			t.Errorf("%s: hash %s, want %s", h.Key, h.Hash, want[h.Key])
		}
	}
}

// TestCodexHooksInConfigTOML: hooks written inline in config.toml are keyed by that file, and
// its [hooks.state] is not taken for an event.
func TestCodexHooksInConfigTOML(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "config.toml")
	data := "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\n" +
		"command = \"/usr/local/bin/agenthooks guard bash --format codex\"\ntimeout = 30\n\n" +
		"[hooks.state.\"x:pre_tool_use:0:0\"]\ntrusted_hash = \"sha256:00\"\n"
	if err := os.WriteFile(file, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(file)
	got := hooksOf(file)
	if len(got) != 1 || got[0].Key != abs+":pre_tool_use:0:0" ||
		got[0].Hash != "sha256:a76f040ec09c568d30622f8a417602ce1bd55aff922e164548c1abbe9b315f32" {
		t.Fatalf("%+v", got)
	}
	states := hookStates(file)
	if st, ok := states["x:pre_tool_use:0:0"]; !ok || st.TrustedHash != "sha256:00" {
		t.Fatalf("states %+v", states)
	}
}
