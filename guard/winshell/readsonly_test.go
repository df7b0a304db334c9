package winshell_test

import (
	"testing"

	"github.com/agenthooks/agenthooks/guard/winshell"
)

// TestReadsOnly: the commands that only look at what they are handed, by any spelling, and
// those that write, or whose output a redirection writes into a file.
func TestReadsOnly(t *testing.T) {
	for _, tc := range []struct {
		shell, text string
		want        []bool // per command, in order
	}{
		{"ps", `Test-Path ~/.claude/settings.json`, []bool{true}},
		{"ps", `gc ~/.claude/settings.json | Select-String hooks`, []bool{true, true}},
		{"ps", `get-content -Raw ~/.claude/settings.json | ConvertFrom-Json`, []bool{true, true}},
		{"ps", `Get-Item ~/.codex/hooks.json; Get-FileHash ~/.codex/hooks.json`, []bool{true, true}},
		{"ps", `Select-String -Path ~/.claude/settings.json -Pattern hooks`, []bool{true}},
		{"ps", `Get-Content x.json > ~/.claude/settings.json`, []bool{false}},
		{"ps", `Get-Content x.json | Out-File ~/.claude/settings.json`, []bool{true, false}},
		{"ps", `Set-Content ~/.claude/settings.json '{}'`, []bool{false}},
		{"ps", `Remove-Item ~/.claude/settings.json`, []bool{false}},
		{"ps", `Copy-Item x.json ~/.claude/settings.json`, []bool{false}},
		{"ps", `Add-Content ~/.claude/settings.json x`, []bool{false}},
		{"ps", `mytool ~/.claude/settings.json`, []bool{false}},
		{"cmd", `type %USERPROFILE%\.claude\settings.json`, []bool{true}},
		{"cmd", `findstr hooks settings.json > out.txt`, []bool{false}},
		{"cmd", `copy x.json settings.json`, []bool{false}},
	} {
		var sc *winshell.Script
		if tc.shell == "ps" {
			sc, _ = winshell.ParsePowerShell(tc.text)
		} else {
			sc, _ = winshell.ParseCmd(tc.text)
		}
		cs := sc.AllCommands()
		if len(cs) != len(tc.want) {
			t.Errorf("%s: %d commands, want %d", tc.text, len(cs), len(tc.want))
			continue
		}
		for i, c := range cs {
			if got := c.ReadsOnly(); got != tc.want[i] {
				t.Errorf("%s: %s ReadsOnly = %v, want %v", tc.text, c.Name, got, tc.want[i])
			}
		}
	}
}
