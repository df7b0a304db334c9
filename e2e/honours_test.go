package e2e

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// honourCase is one way a pre-tool hook can answer, and what an agent was seen to do with it:
// whether the command ran, and (when it did not) a piece of what the model was told.
type honourCase struct {
	name   string
	script string // the hook's body, a bash script
	ran    bool
	model  string // "" when the case does not check what the model saw
}

// writeHookScript writes a bash script that answers as the case says, and returns its path.
func writeHookScript(t testing.TB, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, strings.NewReplacer(" ", "-", "/", "-", ",", "", "+", "").Replace(name)+".sh")
	if err := os.WriteFile(p, []byte("#!/bin/bash\ncat > /dev/null\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// lastToolResult returns the content of the last tool message in the last chat request: what
// the model was told about its call.
func lastToolResult(m *model) string {
	sent := m.sent()
	for i := len(sent) - 1; i >= 0; i-- {
		_, body, _ := strings.Cut(sent[i], "\n")
		var req struct {
			Messages []struct {
				Role    string `json:"role"`
				Content any    `json:"content"`
			} `json:"messages"`
		}
		if json.Unmarshal([]byte(body), &req) != nil {
			continue
		}
		for j := len(req.Messages) - 1; j >= 0; j-- {
			if req.Messages[j].Role == "tool" {
				b, _ := json.Marshal(req.Messages[j].Content)
				return string(b)
			}
		}
	}
	return ""
}

var honours = flag.Bool("agent-honours", false, "run the tables of what each agent does with every form of hook answer (slow: one agent run a row)")

// checkHonours runs each case inside an agent (run: one agent run of "echo hello >
// marker.txt" with the hook script registered as its pre-tool hook, returning the workspace
// and model) and checks what the agent did.
func checkHonours(t *testing.T, cases []honourCase, run func(t *testing.T, script string) (workspace, *model)) {
	if !*honours {
		t.Skip("one agent run a row: run with -agent-honours after changing an agent's version")
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ws, m := run(t, c.script)
			ran := ws.exists("marker.txt")
			seen := lastToolResult(m)
			t.Logf("| %s | ran=%v | model saw %s |", c.name, ran, seen)
			if ran != c.ran {
				t.Errorf("the command ran = %v, want %v", ran, c.ran)
			}
			if !ran && c.model != "" && !strings.Contains(seen, c.model) {
				t.Errorf("the model saw %s, want it to contain %q", seen, c.model)
			}
		})
	}
}

const markerCommand = "echo hello > marker.txt"
