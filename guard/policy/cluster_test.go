package policy

import (
	"slices"
	"testing"
)

// TestListing: a command substitution as written, read as a listing by a tool: whether it lists
// what the tool holds, and whether nothing narrows it.
func TestListing(t *testing.T) {
	for _, tc := range []struct {
		tool, raw        string
		listed, everyone bool
	}{
		{"redis-cli", `$(redis-cli --scan)`, true, true},
		{"redis-cli", `$(redis-cli --scan --pattern '*')`, true, true},
		{"redis-cli", `$(redis-cli -n 2 KEYS "*")`, true, true},
		{"redis-cli", `$(redis-cli --scan --pattern 'session:*')`, true, false},
		{"redis-cli", `$(redis-cli keys 'cache:*')`, true, false},
		{"redis-cli", `$(redis-cli --scan | head -100)`, true, false},
		{"redis-cli", `$(redis-cli --scan | awk '{print $1}')`, true, true},
		{"redis-cli", `$(redis-cli get k)`, false, false},
		{"kubectl", `$(kubectl get ns -o name)`, true, true},
		{"kubectl", `"$(kubectl get ns -o name | grep preview-)"`, true, false},
		{"kubectl", `$(kubectl get pods -l app=web -o name)`, true, false},
		{"kubectl", `$(kubectl get ns -o name | grep -v kube-)`, true, true},
		{"kubectl", `$(kubectl get ns -o name | grep -E '^namespace/pr-[0-9]+$')`, true, false},
		{"aws", `$(aws s3 ls | awk '{print $3}')`, true, true},
		{"aws", `$(aws s3 ls | awk '/tmp/ {print $3}')`, true, false},
		{"docker", `$(docker ps -aq --filter status=exited)`, true, false},
		{"docker", `$(docker ps -aq)`, true, true},
		{"docker", `$(docker ps -aq 2>/dev/null)`, true, true},
		{"docker", `$(docker ps -aq 2>&1 | grep -v WARN)`, true, true},
		{"docker", `$(docker ps -aq 2> /dev/null | head -1)`, true, false},
		{"docker", `$(kubectl get ns -o name)`, false, false},
		{"docker", `$(docker ps -aq; rm -rf /)`, false, false},
		{"docker", `docker ps -aq`, false, false},
	} {
		listed, all := listing(tc.tool, tc.raw)
		if listed != tc.listed || all != tc.everyone {
			t.Errorf("listing(%s, %s) = %v, %v; want %v, %v", tc.tool, tc.raw, listed, all, tc.listed, tc.everyone)
		}
	}
}

func TestPipelineWords(t *testing.T) {
	got, ok := pipelineWords(`aws s3 ls | awk '{print $3}' | sed "s/x/ y/"`)
	want := [][]string{{"aws", "s3", "ls"}, {"awk", "{print $3}"}, {"sed", "s/x/ y/"}}
	if !ok || !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("pipelineWords = %q, %v; want %q", got, ok, want)
	}
	got, ok = pipelineWords(`docker ps -aq 2>/dev/null | tail -n +2 >out`)
	want = [][]string{{"docker", "ps", "-aq"}, {"tail", "-n", "+2"}}
	if !ok || !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("pipelineWords = %q, %v; want %q", got, ok, want)
	}
	for _, bad := range []string{`a || b`, `a | `, `| a`, `a; b`, `a 'open`, `a $(b)`, `a & b`, `a && b`, ``} {
		if _, ok := pipelineWords(bad); ok {
			t.Errorf("pipelineWords(%q): ok", bad)
		}
	}
}

// FuzzPipelineWords: any text, never a panic; what it splits has no empty stage.
func FuzzPipelineWords(f *testing.F) {
	for _, s := range []string{`aws s3 ls | awk '{print $3}'`, `redis-cli --scan --pattern "*"`, `a || b`, `'`, `"|"|`, ``} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		stages, ok := pipelineWords(s)
		if !ok {
			return
		}
		for _, st := range stages {
			if len(st) == 0 {
				t.Fatalf("%q: an empty stage in %q", s, stages)
			}
		}
		listing("redis-cli", "$("+s+")")
	})
}
