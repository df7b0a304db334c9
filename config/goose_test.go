package config

import (
	"strings"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/goose"
)

func gooseSource() Source {
	return Source{Layer: User, Family: goose.Name, File: "hooks.json", Trusted: true}
}

// TestDecodeGoose: a Goose plugin's hooks/hooks.json is Claude Code's matcher groups with
// Goose's events, its on_failure, and matchers read as unanchored regular expressions.
func TestDecodeGoose(t *testing.T) {
	t.Parallel()
	data := `{"hooks":{
  "PreToolUse":[{"matcher":"shell","hooks":[{"type":"command","command":"./check.sh","timeout":5,"on_failure":"block"}]}],
  "BeforeShellExecution":[{"hooks":[{"type":"command","command":"./log.sh"}]}],
  "Stop":[{"hooks":[{"type":"command","command":"./stop.sh","on_failure":"allow"}]}]
}}`
	f := DecodeAs(gooseSource(), []byte(data), dialect.FormatSettings)
	if !f.Usable || f.Problems.HasErrors() || len(f.Hooks) != 3 {
		t.Fatalf("usable %v, problems:\n%s%d hooks", f.Usable, problemsText(f), len(f.Hooks))
	}
	check := f.Hooks[0]
	if check.Command != "./check.sh" || !check.FailClosed || check.Timeout != 5*time.Second || check.Pos.Line != 2 {
		t.Errorf("check.sh = %+v", check)
	}
	// unanchored: "shell" matches developer__shell, which Claude Code's exact name would not
	if !check.Matches("developer__shell", false) || check.Matches("developer__write", false) {
		t.Errorf("matcher %q: developer__shell %v, developer__write %v", check.Matcher, check.Matches("developer__shell", false), check.Matches("developer__write", false))
	}
	if f.Hooks[1].Event != "BeforeShellExecution" || f.Hooks[2].FailClosed {
		t.Errorf("hooks = %+v %+v", f.Hooks[1], f.Hooks[2])
	}
}

// TestDecodeGooseErrors: each problem Goose has with a hooks file, at its line and column.
func TestDecodeGooseErrors(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, data, want string
		usable           bool
	}{
		{"on_failure not allow or block", `{"hooks":{"PreToolUse":[{"hooks":[
  {"type":"command","command":"x","on_failure":"deny"}]}]}}`,
			`hooks.json:2:48: on_failure must be "allow" or "block" (Goose refuses the whole file otherwise)`, false},
		{"on_failure where Goose ignores it", `{"hooks":{"Stop":[{"hooks":[{"command":"x","on_failure":"block"}]}]}}`,
			"hooks.json:1:44: warning: Goose honours on_failure on PreToolUse only", true},
		{"a bare star", `{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"command":"x"}]}]}}`,
			"hooks.json:1:36: warning: Goose reads matcher as a regular expression, and a bare * is none: it skips this group", true},
		{"an unknown event", `{"hooks":{"beforeSubmitPrompt":[{"hooks":[{"command":"x"}]}]}}`,
			"hooks.json:1:11: warning: Unknown Goose hook event: beforeSubmitPrompt", true},
		{"syntax", "{\"hooks\":\n{\"Stop\":[}}", "hooks.json:2:10: invalid JSON", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := DecodeAs(gooseSource(), []byte(c.data), dialect.FormatSettings)
			if got := problemsText(f); !strings.Contains(got, c.want) || f.Usable != c.usable {
				t.Errorf("usable %v, problems:\n%swant usable %v and %s", f.Usable, got, c.usable, c.want)
			}
		})
	}
}

// FuzzDecodeGoose: no hooks.json makes the decoder panic, and every hook it gives is of an
// event Goose has.
func FuzzDecodeGoose(f *testing.F) {
	f.Add(`{"hooks":{"PreToolUse":[{"matcher":"^(developer__)?shell$","hooks":[{"type":"command","command":"x","timeout":30,"on_failure":"block"}]}]}}`)
	f.Add(`{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"command":"x","on_failure":1}]}]}}`)
	f.Add(`{"hooks":{"Stop":[{"hooks":[{"command":"x"}]}],"Nope":[]}}`)
	f.Add(`[`)
	d := goose.Dialect(dialect.AskAsDeny)
	f.Fuzz(func(t *testing.T, data string) {
		file := DecodeAs(gooseSource(), []byte(data), dialect.FormatSettings)
		for _, h := range file.Hooks {
			if _, ok := d.Lookup(h.Event); !ok {
				t.Fatalf("a hook of %q, not an event of Goose's", h.Event)
			}
		}
	})
}
