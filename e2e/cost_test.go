package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"
)

// costCalls is how many scripted shell calls one agent run makes.
const costCalls = 20

var decodeOnly struct {
	once sync.Once
	path string
	err  error
}

// decodeOnlyHook builds a hook that only decodes the payload and allows: the floor any hook
// written in Go pays.
func decodeOnlyHook(b *testing.B) string {
	decodeOnly.once.Do(func() {
		dir, err := os.MkdirTemp("", "agenthooks-decode")
		if err != nil {
			decodeOnly.err = err
			return
		}
		src := `package main

import (
	"encoding/json"
	"os"
)

func main() {
	var m map[string]any
	if err := json.NewDecoder(os.Stdin).Decode(&m); err != nil {
		os.Exit(1)
	}
}
`
		if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644); err != nil {
			decodeOnly.err = err
			return
		}
		mod := "module decode\n\ngo 1.26\n"
		if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o644); err != nil {
			decodeOnly.err = err
			return
		}
		cmd := exec.Command("go", "build", "-o", "decode", ".")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			decodeOnly.err = fmt.Errorf("build the decode-only hook: %v\n%s", err, out)
			return
		}
		decodeOnly.path = filepath.Join(dir, "decode")
	})
	if decodeOnly.err != nil {
		b.Fatal(decodeOnly.err)
	}
	return decodeOnly.path
}

// costAgent runs one agent with costCalls shell calls and the given hook ("" for none), and
// returns the run's wall time.
type costAgent func(b *testing.B, hook string) time.Duration

func costCommands() []string {
	var cmds []string
	for i := range costCalls {
		cmds = append(cmds, fmt.Sprintf("echo %d > f%d.txt", i, i))
	}
	return cmds
}

func timed(f func()) time.Duration {
	start := time.Now()
	f()
	return time.Since(start)
}

var costAgents = map[string]costAgent{
	"codex": func(b *testing.B, hook string) time.Duration {
		c := newCodex(b, costCommands()...)
		if hook != "" {
			c.hooks(b, map[string]any{"PreToolUse": []any{group("Bash", hook)}})
		}
		return timed(func() { c.exec(b, "please run them") })
	},
	"gemini": func(b *testing.B, hook string) time.Duration {
		g := newGemini(b, costCommands()...)
		if hook != "" {
			g.settings(b, map[string]any{"BeforeTool": []any{geminiGroup("run_shell_command", hook)}})
		}
		return timed(func() { g.exec(b, "please run them") })
	},
	"claude": func(b *testing.B, hook string) time.Duration {
		c := newClaude(b, costCommands()...)
		if hook != "" {
			c.settings(b, map[string]any{"PreToolUse": []any{group("Bash", hook)}})
		}
		return timed(func() { c.exec(b, "please run them") })
	},
}

// BenchmarkAgentCost is the cost of a hook as the agent sees it: each iteration runs the agent
// with costCalls shell calls three ways, interleaved so that drift hits all three alike: with
// no hook, with a Go hook that only decodes the payload, and with agenthooks-guard bash (what
// install writes for the shell guard). It
// reports the median, over iterations, of the milliseconds each hook adds per call (the runs of
// one iteration are paired); the target is guard-over-decode ≤ 3 ms/call.
//
//	go test ./e2e -run '^$' -bench AgentCost -benchtime 5x
func BenchmarkAgentCost(b *testing.B) {
	decode := decodeOnlyHook(b)
	guard := filepath.Join(agenthooksDir(b), "agenthooks-guard") + " bash --audit off"
	for _, name := range []string{"codex", "gemini", "claude", "qwen", "copilot", "crush", "droid", "opencode", "cline"} {
		run := costAgents[name]
		b.Run(name, func(b *testing.B) {
			run(b, "") // warm the install and the caches
			var none []time.Duration
			var dec, grd, over []float64
			for b.Loop() {
				n, d, g := run(b, ""), run(b, decode), run(b, guard)
				none = append(none, n)
				dec = append(dec, perCall(d-n))
				grd = append(grd, perCall(g-n))
				over = append(over, perCall(g-d))
			}
			slices.Sort(none)
			b.ReportMetric(float64(none[len(none)/2].Milliseconds()), "ms/run-no-hook")
			b.ReportMetric(median(dec), "decode-ms/call")
			b.ReportMetric(median(grd), "guard-ms/call")
			b.ReportMetric(median(over), "guard-over-decode-ms/call")
		})
	}
}

// perCall spreads a run's added time over its calls, in milliseconds.
func perCall(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / costCalls }

// median is the middle of the paired differences: one slow run does not move it.
func median(v []float64) float64 {
	slices.Sort(v)
	return v[len(v)/2]
}
