package coverage

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/audit"
)

// fuzzParser feeds a transcript parser hostile bytes: it must not panic, every call it returns
// names its agent, session and kind, and every problem is at a line of the input.
func fuzzParser(f *testing.F, agent, file string, parse func(string, io.Reader) ([]Call, []Problem)) {
	var seeds []string
	_ = filepath.WalkDir(filepath.Join("testdata", agent, "home"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			seeds = append(seeds, p)
		}
		return nil
	})
	for _, s := range seeds {
		data, err := os.ReadFile(s)
		if err != nil {
			continue
		}
		f.Add(data)
		// Each line alone, and each cut short.
		for _, l := range bytes.Split(data, []byte("\n")) {
			f.Add(l)
			f.Add(l[:len(l)/2])
		}
	}
	f.Add([]byte(strings.Repeat("[", 10000)))
	f.Add([]byte("{\"sessionId\":\"s\"}\n\x00\xff\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		calls, probs := parse(file, bytes.NewReader(data))
		n := bytes.Count(data, []byte("\n")) + 1
		for _, c := range calls {
			if c.Agent != agent || c.Session == "" || (c.Kind != Shell && c.Kind != File) || c.Line < 1 || c.Line > n {
				t.Fatalf("call %+v", c)
			}
			if len(c.Command) > MaxCommand {
				t.Fatalf("command of %d bytes", len(c.Command))
			}
		}
		for _, p := range probs {
			if p.Line < 0 || p.Line > n || p.File != file {
				t.Fatalf("problem %+v in %d lines", p, n)
			}
		}
	})
}

func FuzzClaude(f *testing.F) { fuzzParser(f, "claude", "t.jsonl", parseClaude) }
func FuzzCodex(f *testing.F)  { fuzzParser(f, "codex", "t.jsonl", parseCodex) }
func FuzzGemini(f *testing.F) { fuzzParser(f, "gemini", "t.jsonl", parseGemini) }

// FuzzGeminiJSON: the older Gemini chat format, one JSON document.
func FuzzGeminiJSON(f *testing.F) {
	f.Add([]byte(`{"sessionId":"s","messages":[{"id":"m","type":"gemini","toolCalls":[{"id":"c","name":"run_shell_command","args":{"command":"ls"}}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		calls, _ := parseGemini("chat.json", bytes.NewReader(data))
		for _, c := range calls {
			if c.Session == "" || c.Agent != "gemini" {
				t.Fatalf("call %+v", c)
			}
		}
	})
}

// FuzzDecisionOf: an audit record's payload is the agent's, and hostile.
func FuzzDecisionOf(f *testing.F) {
	data, _ := os.ReadFile(filepath.Join("testdata", "claude", "audit.jsonl"))
	for _, l := range bytes.Split(data, []byte("\n")) {
		f.Add(string(l))
	}
	f.Fuzz(func(t *testing.T, payload string) {
		r := audit.Record{Agent: "claude", Event: "PreToolUse", Payload: payload}
		d, ok := DecisionOf(&r)
		if !ok || d.Agent != "claude" {
			t.Fatalf("decision %+v", d)
		}
		Check([]Call{{Agent: "claude", Session: d.Session, ToolUseID: "x", Command: payload}}, []Decision{d}, nil)
	})
}
