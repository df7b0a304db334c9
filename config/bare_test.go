package config

import (
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/dialect/droid"
)

// TestDecodeBareSettings: Factory Droid's hooks.json is a bare map of events in Claude Code's
// matcher-group shape; its problems have positions. An event it does not know (a newer Droid's)
// is a warning that skips that event's hooks: the file stays usable.
func TestDecodeBareSettings(t *testing.T) {
	src := Source{Layer: User, Family: droid.Name, File: "hooks.json"}
	f := DecodeBareSettings(src, []byte(`{
  "PreToolUse": [{"matcher": "Execute", "hooks": [{"type": "command", "command": "agenthooks guard bash", "timeout": 10}]}]
}`))
	if !f.Usable || len(f.Hooks) != 1 || f.Hooks[0].Event != "PreToolUse" || f.Hooks[0].Matcher != "Execute" || f.Hooks[0].Pos.Line != 2 {
		t.Fatalf("hooks %+v problems %v", f.Hooks, f.Problems)
	}
	bad := DecodeBareSettings(src, []byte("{\n  \"PostToolUseFailure\": []\n}"))
	if !bad.Usable || len(bad.Problems) == 0 || bad.Problems.HasErrors() || !strings.HasPrefix(bad.Problems[0].String(), "hooks.json:2:3: warning:") ||
		!strings.Contains(bad.Problems[0].String(), "Unknown Factory Droid hook event: PostToolUseFailure") {
		t.Errorf("problems %v", bad.Problems)
	}
	if f := DecodeBareSettings(src, []byte(`[`)); f.Usable {
		t.Error("broken JSON must not be usable")
	}
}

func FuzzDecodeBareSettings(f *testing.F) {
	for _, seed := range []string{`{"PreToolUse":[{"matcher":"Execute","hooks":[{"type":"command","command":"x"}]}]}`, `{"Stop":1}`, `[]`, `{`} {
		f.Add([]byte(seed))
	}
	src := Source{Layer: User, Family: droid.Name, File: "hooks.json"}
	f.Fuzz(func(t *testing.T, data []byte) {
		cf := DecodeBareSettings(src, data)
		for _, p := range cf.Problems {
			if p.Line < 1 {
				t.Fatalf("unpositioned problem %v", p)
			}
		}
	})
}
