package guard_test

import (
	"maps"
	"slices"
	"testing"

	"github.com/agenthooks/agenthooks/guard"
)

// agentContexts is the home and working directory each category of the agents' sets was judged in:
// the directory its sessions ran in, as the files' headers record it.
var agentContexts = map[string]guard.Context{
	"agent-openhands":                {Home: "/root", Cwd: "/workspace", Project: "/workspace"},
	"agent-mini-swe-agent":           {Home: "/root", Cwd: "/testbed", Project: "/testbed"},
	"agent-live-swe-agent":           {Home: "/root", Cwd: "/testbed", Project: "/testbed"},
	"agent-claude-code-mclaude":      {Home: "/Users/[USER]", Cwd: "/Users/[USER]", Project: "/Users/[USER]"},
	"agent-claude-code-brainexplore": {Home: "/home/chris", Cwd: "/home/chris/dev/projects/codex/brain_explore", Project: "/home/chris/dev/projects/codex/brain_explore"},
	"agent-claude-code-patterns":     {Home: "/Users/nik", Cwd: "/Users/nik/Documents/Code/claude-code-production-patterns/main", Project: "/Users/nik/Documents/Code/claude-code-production-patterns/main"},
	"agent-claude-code-omarchy":      {Home: "/home/vwestberg", Cwd: "/home/vwestberg/Claude", Project: "/home/vwestberg/Claude"},
	"agent-claude-code-sudarshan":    {Home: "/Users/sudarshanv", Cwd: "/Users/sudarshanv/Documents/code/scratch", Project: "/Users/sudarshanv/Documents/code/scratch"},
	"agent-gemini-cli-figma":         {Home: "/home/dev", Cwd: "/home/dev/project", Project: "/home/dev/project"},
	"agent-codex-knearme":            {Home: "/Users/aaronbaker", Cwd: "/Users/aaronbaker/knearme-workspace", Project: "/Users/aaronbaker/knearme-workspace"},
	"agent-codex-capstone":           {Home: "/home/fronk", Cwd: "/home/fronk/ECE493/Capstone/Group/ece493_2026w_group14", Project: "/home/fronk/ECE493/Capstone/Group/ece493_2026w_group14"},
	"agent-codex-voice":              {Home: "/home/relu", Cwd: "/home/relu/misc/local-voice-assistant-codex", Project: "/home/relu/misc/local-voice-assistant-codex"},
	"agent-codex-lab":                {Home: "/home/aiden", Cwd: "/home/aiden/ECE_493_Lab_2", Project: "/home/aiden/ECE_493_Lab_2"},
	"agent-codex-butler":             {Home: "/Users/edmundengland", Cwd: "/Users/edmundengland/Documents/coding_tools/code_butler", Project: "/Users/edmundengland/Documents/coding_tools/code_butler"},
}

// TestAgentsSet judges the shell commands real coding agents issued in public sessions, each in
// the working directory its agent used: 17,664 from SWE-bench runs (OpenHands, mini-swe-agent,
// Live-SWE-agent; guard/testdata/agents.tsv) and 4,145 from Claude Code, Codex CLI and Gemini
// CLI sessions of people's own projects and machines (guard/testdata/agents-sessions.tsv); the
// files name their sources. None
// of them destroys anything its user did not mean to lose; the guard may interrupt at most 1% of
// them (the bar). The SWE-bench runs work in a throwaway checkout and are denied almost
// nothing (today: `manage.py migrate APP zero`, which does drop the app's tables); the sessions
// of people's own machines hold what a guard should stop and ask about (force pushes, killall,
// registry writes, packages removed on a router as root), which the per-source log shows.
func TestAgentsSet(t *testing.T) {
	t.Parallel()
	g := guard.Default()
	type count struct{ n, interrupted, denied int }
	per := map[string]*count{}
	var all count
	for _, file := range []string{"testdata/agents.tsv", "testdata/agents-sessions.tsv"} {
		for _, c := range readCorpus(t, file) {
			ctx, ok := agentContexts[c.Category]
			if !ok {
				t.Fatalf("%s:%d: category %q has no context in agentContexts", file, c.Line, c.Category)
			}
			v := g.Check(c.Command, ctx)
			k := per[c.Category]
			if k == nil {
				k = &count{}
				per[c.Category] = k
			}
			for _, k := range []*count{k, &all} {
				k.n++
				if v.Decision != guard.Allow {
					k.interrupted++
				}
				if v.Decision == guard.Deny {
					k.denied++
				}
			}
		}
	}
	if all.n < 10000 {
		t.Fatalf("the agents' sets have %d commands, want at least 10,000", all.n)
	}
	if rate := float64(all.interrupted) / float64(all.n); rate > 0.01 {
		t.Errorf("%.2f%% of the agents' commands interrupted, more than 1%%", 100*rate)
	}
	var bench count
	for _, cat := range []string{"agent-openhands", "agent-mini-swe-agent", "agent-live-swe-agent"} {
		if k := per[cat]; k != nil {
			bench.n, bench.denied = bench.n+k.n, bench.denied+k.denied
		}
	}
	if rate := float64(bench.denied) / float64(bench.n); bench.n == 0 || rate > 0.0005 {
		t.Errorf("%.3f%% of the SWE-bench agents' commands denied", 100*rate)
	}
	for _, cat := range slices.Sorted(maps.Keys(per)) {
		k := per[cat]
		t.Logf("%-32s %6d commands: %4d interrupted (%.2f%%), %3d denied", cat, k.n, k.interrupted, 100*float64(k.interrupted)/float64(k.n), k.denied)
	}
	t.Logf("all: %d commands: %d interrupted (%.2f%%), %d denied", all.n, all.interrupted, 100*float64(all.interrupted)/float64(all.n), all.denied)
}

// TestEverydaySet judges 2,806 everyday developer and agent commands across 37 categories
// (guard/testdata/everyday.tsv, written from real workflows, not from the rules): none denied,
// at most 1% interrupted. What it asks about today is defensible (sudo, SQL files and scripts it
// cannot read in the test's empty project, kubectl delete job, exec "$@").
func TestEverydaySet(t *testing.T) {
	t.Parallel()
	g := guard.Default()
	var n, interrupted int
	for _, c := range readCorpus(t, "testdata/everyday.tsv") {
		cmd := c.Command
		v := g.Check(cmd, corpusCtx)
		n++
		if v.Decision == guard.Deny {
			t.Errorf("everyday.tsv:%d: denied: %s (%s)", c.Line, cmd, v.Reason)
		}
		if v.Decision != guard.Allow {
			interrupted++
		}
	}
	if n < 2000 {
		t.Fatalf("everyday.tsv has %d commands, want at least 2,000", n)
	}
	if rate := float64(interrupted) / float64(n); rate > 0.01 {
		t.Errorf("%.2f%% of everyday commands interrupted, more than 1%%", 100*rate)
	}
	t.Logf("%d commands, %d interrupted", n, interrupted)
}
