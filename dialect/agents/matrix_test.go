package agents

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"testing"

	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
)

// e2eTests returns the names of the test functions in e2e/.
func e2eTests(t *testing.T) map[string]bool {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "e2e", "*_test.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no e2e tests: %v", err)
	}
	out := map[string]bool{}
	fset := token.NewFileSet()
	for _, f := range files {
		file, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil {
				out[fn.Name.Name] = true
			}
		}
	}
	return out
}

// TestProvenByE2E: every e2e test a descriptor names exists in e2e/, is about an event of the
// agent's dialect, and proves a capability the matrix says the agent has, marked e2e there.
func TestProvenByE2E(t *testing.T) {
	t.Parallel()
	tests := e2eTests(t)
	m := Matrix()
	for i, a := range All() {
		if m[i].Name != a.Name || m[i].E2E != (len(a.Proven) > 0) {
			t.Errorf("%s: matrix row %+v", a.Name, m[i].Name)
		}
		for _, p := range a.Proven {
			if !tests[p.Test] {
				t.Errorf("%s: %s proves %s on %s, but e2e/ has no such test", a.Name, p.Test, p.Can, p.Event)
			}
			var row *EventRow
			for j := range m[i].Events {
				if m[i].Events[j].Event == p.Event {
					row = &m[i].Events[j]
				}
			}
			if row == nil {
				t.Errorf("%s: %s proves %s on %s, which is not one of its events", a.Name, p.Test, p.Can, p.Event)
				continue
			}
			if s := row.Support(p.Can); !s.Can || s.Proof != "e2e" || s.Test != p.Test {
				t.Errorf("%s: %s proves %s on %s, but the matrix says %+v", a.Name, p.Test, p.Can, p.Event, *s)
			}
		}
	}
	for i, a := range All() {
		if len(m[i].AlsoRuns) != len(a.Reads) {
			t.Errorf("%s: also runs %+v, reads %+v", a.Name, m[i].AlsoRuns, a.Reads)
		}
		for j, r := range a.Reads {
			if got := m[i].AlsoRuns[j]; got.Agent != r.Agent || got.Setting != r.Setting || Get(r.Agent) == nil {
				t.Errorf("%s: also runs %+v, reads %+v", a.Name, got, r)
			}
		}
	}
	if !tests["TestClaudeShellGuard"] || tests["TestNoSuchThing"] {
		t.Fatal("the e2e test list is wrong")
	}
}

// TestMatrixFollowsTheDescriptors: a capability is claimed only where the descriptor allows it
// (ask where the agent can ask, block where the event gates, rewrite where the agent runs a
// rewritten input), and each claim is an answer the agent's own encoder writes and its own
// reader reads back.
func TestMatrixFollowsTheDescriptors(t *testing.T) {
	t.Parallel()
	for i, row := range Matrix() {
		a := All()[i]
		d := a.Dialect(dialect.AskAsDeny)
		if len(row.Events) != len(d.Names()) {
			t.Errorf("%s: %d events, the dialect has %d", a.Name, len(row.Events), len(d.Names()))
		}
		for _, ev := range row.Events {
			spec, _ := d.Lookup(ev.Event)
			if ev.Ask.Can && (!a.Answer.CanAsk || !spec.Gates) || ev.Block.Can && !spec.Gates || ev.Rewrite.Can && a.Answer.Rewrite == nil {
				t.Errorf("%s %s: %+v claims more than the descriptor allows", a.Name, ev.Event, ev)
			}
			for _, c := range Capabilities {
				if s := ev.Support(c); s.Can != (s.Proof != "") {
					t.Errorf("%s %s %s: %+v", a.Name, ev.Event, c, *s)
				}
			}
			if ev.Context.Can {
				r := d.Encode(spec, decide.Decision{AdditionalContext: "ctx"})
				if o := d.Interpret(spec, r.ExitCode, r.Stdout, r.Stderr, 0); o.Answer.AdditionalContext != "ctx" {
					t.Errorf("%s %s: context claimed, read back %+v", a.Name, ev.Event, o.Answer)
				}
			}
		}
	}
}

// TestMatrixOfAnAgent: what the register's own agents show, as their documentation says: Claude
// Code blocks, asks, rewrites and adds context on PreToolUse, proven inside it for block and
// rewrite; Codex cannot ask; Cursor rests on fixtures; Gemini CLI rewrites BeforeTool's input.
func TestMatrixOfAnAgent(t *testing.T) {
	t.Parallel()
	rows := map[dialect.Name]map[string]EventRow{}
	e2e := map[dialect.Name]bool{}
	for _, a := range Matrix() {
		rows[a.Name] = map[string]EventRow{}
		e2e[a.Name] = a.E2E
		for _, ev := range a.Events {
			rows[a.Name][ev.Event] = ev
		}
	}
	pre := rows[dialect.Claude]["PreToolUse"]
	if !pre.Block.Can || !pre.Ask.Can || !pre.Rewrite.Can || !pre.Context.Can || pre.Block.Proof != "e2e" || pre.Ask.Proof != "fixtures" {
		t.Errorf("Claude Code's PreToolUse: %+v", pre)
	}
	if r := rows[dialect.Claude]["Notification"]; r.Block.Can || r.Ask.Can || r.Rewrite.Can {
		t.Errorf("Claude Code's Notification: %+v", r)
	}
	if r := rows[dialect.Codex]["PreToolUse"]; r.Ask.Can || !r.Block.Can {
		t.Errorf("Codex's PreToolUse: %+v", r)
	}
	if r := rows[dialect.Cursor]["beforeShellExecution"]; !r.Block.Can || !r.Ask.Can || r.Block.Proof != "fixtures" || e2e[dialect.Cursor] {
		t.Errorf("Cursor's beforeShellExecution: %+v", r)
	}
	if r := rows[dialect.Gemini]["BeforeTool"]; !r.Rewrite.Can || r.Rewrite.Test != "TestGeminiConfine" {
		t.Errorf("Gemini CLI's BeforeTool: %+v", r)
	}
	b, err := json.Marshal(rows[dialect.Claude]["PreToolUse"])
	if err != nil || string(b) != `{"event":"PreToolUse","kind":"pre-tool","block":{"can":true,"proof":"e2e","test":"TestClaudeShellGuard"},"ask":{"can":true,"proof":"fixtures"},"rewrite":{"can":true,"proof":"e2e","test":"TestClaudeConfine"},"context":{"can":true,"proof":"fixtures"}}` {
		t.Errorf("JSON: %s %v", b, err)
	}
}
