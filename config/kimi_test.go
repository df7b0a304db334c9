package config

import (
	"strings"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/dialect/kimi"
)

func kimiSource() Source {
	return Source{Layer: User, Family: kimi.Name, File: "config.toml", Trusted: true}
}

// TestDecodeKimi: the [[hooks]] tables of a Kimi Code config.toml become hooks of its events,
// each at the line of its table, with its matcher, timeout and fail_mode; the rest of the file
// is not agenthooks' business.
func TestDecodeKimi(t *testing.T) {
	t.Parallel()
	data := "default_model = \"m\"\n\n[[hooks]]\nevent = \"PreToolUse\"\nmatcher = \"Bash\"\ncommand = \"./check.sh\"\ntimeout = 5\nfail_mode = \"closed\"\n\n" +
		"[providers.x]\ntype = \"openai\"\n\n[[hooks]]\nevent = \"Stop\"\ncommand = \"./stop.sh\"\n\n[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"./all.sh\"\n"
	f := DecodeKimi(kimiSource(), []byte(data))
	if !f.Usable || f.Problems.HasErrors() || len(f.Problems) != 1 || !strings.Contains(problemsText(f), "config.toml:3:1: warning: hooks[0]: fail_mode is read by Kimi Code newer than 2.1.0 only") || len(f.Hooks) != 3 {
		t.Fatalf("usable %v, problems %v, %d hooks", f.Usable, f.Problems, len(f.Hooks))
	}
	lines := map[string]int{}
	for _, h := range f.Hooks {
		lines[h.Command] = h.Pos.Line
		if h.Command == "./check.sh" && (h.Matcher != "Bash" || h.Timeout != 5*time.Second || !h.FailClosed) {
			t.Errorf("check.sh = %+v", h)
		}
	}
	if lines["./check.sh"] != 3 || lines["./stop.sh"] != 13 || lines["./all.sh"] != 17 {
		t.Errorf("positions %v, want each table's header line", lines)
	}
	if f := DecodeKimi(kimiSource(), []byte("default_model = \"m\"\n")); !f.Usable || len(f.Hooks)+len(f.Problems) != 0 {
		t.Errorf("a file with no hooks: %+v", f)
	}
}

// TestDecodeKimiErrors: what makes Kimi Code refuse the file is an error at the line of the
// table, naming the field.
func TestDecodeKimiErrors(t *testing.T) {
	t.Parallel()
	head := "model = 1\n\n[[hooks]]\n"
	for name, c := range map[string]struct{ body, want string }{
		"unknown field": {"event = \"Stop\"\ncommand = \"x\"\nname = \"n\"\n", `config.toml:3:1: hooks[0]: unknown field "name"`},
		"unknown event": {"event = \"BeforeTool\"\ncommand = \"x\"\n", `config.toml:3:1: hooks[0]: unknown event "BeforeTool"`},
		"no command":    {"event = \"Stop\"\n", "config.toml:3:1: hooks[0]: command must be a non-empty string"},
		"timeout":       {"event = \"Stop\"\ncommand = \"x\"\ntimeout = 601\n", "config.toml:3:1: hooks[0]: timeout must be"},
		"fail_mode":     {"event = \"Stop\"\ncommand = \"x\"\nfail_mode = \"shut\"\n", `config.toml:3:1: hooks[0]: fail_mode must be "open" or "closed"`},
		"syntax":        {"event = \n", "config.toml:4:"},
	} {
		f := DecodeKimi(kimiSource(), []byte(head+c.body))
		if f.Usable || !strings.Contains(problemsText(f), c.want) {
			t.Errorf("%s: usable %v, problems:\n%s\nwant %q", name, f.Usable, f.Problems, c.want)
		}
	}
	if f := DecodeKimi(kimiSource(), []byte("x = 1\nhooks = \"no\"\n")); f.Usable || !strings.Contains(problemsText(f), "config.toml:2:") {
		t.Errorf("hooks not an array of tables: %v", f.Problems)
	}
}

// FuzzDecodeKimi: any config.toml is decoded without a panic, problems name the file, and a
// file with errors is never usable.
func FuzzDecodeKimi(f *testing.F) {
	f.Add([]byte("[[hooks]]\nevent = \"PreToolUse\"\nmatcher = \"Bash\"\ncommand = \"true\"\ntimeout = 30\nfail_mode = \"closed\"\n"))
	f.Add([]byte("default_model = \"x\"\n[providers.a]\ntype = \"openai\"\n"))
	f.Add([]byte("[[hooks]]\nevent = 3\n"))
	f.Add([]byte("hooks = [1, 2]\n"))
	f.Add([]byte("[[hooks\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		file := DecodeKimi(kimiSource(), data)
		for _, p := range file.Problems {
			if p.File != "config.toml" {
				t.Fatalf("problem without its file: %v", p)
			}
		}
		if file.Usable && file.Problems.HasErrors() {
			t.Fatal("a file with errors is usable")
		}
	})
}

func problemsText(f *File) string {
	var b strings.Builder
	for _, p := range f.Problems {
		b.WriteString(p.String() + "\n")
	}
	return b.String()
}
