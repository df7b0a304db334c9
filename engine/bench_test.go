package engine

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/runner"
)

var benchPayload = []byte(`{"command":"git status","cwd":"/tmp","conversation_id":"c","generation_id":"g","model":"m","hook_event_name":"beforeShellExecution","cursor_version":"1.7","workspace_roots":["/tmp"],"user_email":null,"transcript_path":null}`)

// BenchmarkFire is one fire of beforeShellExecution with N trivial hooks (each a shell that
// exits 0 at once), run concurrently as by default.
func BenchmarkFire(b *testing.B) {
	for _, n := range []int{0, 1, 4, 16} {
		b.Run(fmt.Sprintf("hooks=%d", n), func(b *testing.B) {
			cmds := make([]string, n)
			for i := range cmds {
				cmds[i] = `exit 0`
			}
			cfg := `{"version":1,"hooks":{}}`
			if n > 0 {
				cfg = hooksOf("beforeShellExecution", cmds...)
			}
			eng := newEngine(b, cfg, Options{MaxParallel: 16})
			ev := Event{Name: "beforeShellExecution", Payload: benchPayload}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := eng.Fire(context.Background(), ev); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkProcess is the floor the engine stands on: starting the same trivial hook directly,
// with os/exec alone and through the runner (process group, caps, stdin).
func BenchmarkProcess(b *testing.B) {
	b.Run("exec", func(b *testing.B) {
		for b.Loop() {
			if err := exec.Command("/bin/sh", "-c", "exit 0").Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("runner", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if r := runner.Run(context.Background(), runner.Spec{Command: "exit 0", Stdin: benchPayload}); !r.Success() {
				b.Fatal(r)
			}
		}
	})
}

// BenchmarkLoad is loading the layers: enterprise, user, and a missing project.
func BenchmarkLoad(b *testing.B) {
	cmds := make([]string, 20)
	for i := range cmds {
		cmds[i] = "./hooks/h" + fmt.Sprint(i) + ".sh --flag " + strings.Repeat("x", 20)
	}
	eng := newEngine(b, hooksOf("beforeShellExecution", cmds...), Options{})
	opts := eng.opts
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Load(opts); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFireSlowHooks shows that concurrent hooks cost about the slowest one: N hooks that
// each sleep 50 ms, run concurrently and then in sequence.
func BenchmarkFireSlowHooks(b *testing.B) {
	for _, seq := range []bool{false, true} {
		for _, n := range []int{1, 4} {
			b.Run(fmt.Sprintf("hooks=%d/sequential=%v", n, seq), func(b *testing.B) {
				cmds := make([]string, n)
				for i := range cmds {
					cmds[i] = "sleep 0.05"
				}
				eng := newEngine(b, hooksOf("afterShellExecution", cmds...), Options{Sequential: seq})
				ev := Event{Name: "afterShellExecution", Payload: benchPayload}
				for b.Loop() {
					eng.Fire(context.Background(), ev)
				}
			})
		}
	}
}
