package policy_test

import (
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/guard/policy"
)

// FuzzSwitchKeys: whatever text an agent's file tool writes to a settings file protected for
// keys, the guard never panics, and text that names a key, as written or in any case, is denied.
func FuzzSwitchKeys(f *testing.F) {
	f.Add(`{"chat.useHooks": false}`, ``)
	f.Add(`{"chat.use\u0048ooks": false}`, `{"editor.tabSize": 2}`)
	f.Add(`{"chat.hookFilesLocations": {"~/.copilot/hooks": false}}`, `\u`)
	f.Add(`{"editor.formatOnSave": true}`, `\u00`)
	f.Add(`\u12\u004`, `{"CHAT.USEHOOKS": true}`)
	ctx := policy.Context{Home: "/home/a", Cwd: "/work/p", Project: "/work/p",
		Protected: []policy.Protected{{Path: "/work/p/.vscode/settings.json", What: "VS Code's settings", Keys: []string{"chat.hook", "chat.useHooks"}}}}
	f.Fuzz(func(t *testing.T, after, before string) {
		v := policy.CheckEditText("Write", []string{".vscode/settings.json"}, func(string) (string, string, bool) { return before, after, true }, ctx)
		named := strings.Contains(strings.ToLower(before+"\x00"+after), "chat.hook") || strings.Contains(strings.ToLower(before+"\x00"+after), "chat.usehooks")
		if named && v.Decision != policy.Deny {
			t.Fatalf("before %q, after %q names a key: %s", before, after, v.Decision)
		}
	})
}
