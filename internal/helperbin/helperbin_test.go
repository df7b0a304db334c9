package helperbin

import (
	"strings"
	"testing"
)

func TestFind(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	if p, err := Find(env(map[string]string{"X_HELPER": "/opt/h"}), "X_HELPER", "agenthooks-nonexistent", "a helper"); err != nil || p != "/opt/h" {
		t.Fatalf("the environment variable did not win: %q %v", p, err)
	}
	_, err := Find(env(nil), "X_HELPER", "agenthooks-nonexistent", "a helper")
	if err == nil || !strings.Contains(err.Error(), "go install github.com/agenthooks/agenthooks/cmd/agenthooks-nonexistent@latest") {
		t.Fatalf("a missing helper: %v", err)
	}
	if p, err := Find(env(nil), "X_HELPER", "sh", "a shell"); err != nil || !strings.HasSuffix(p, "/sh") {
		t.Fatalf("a helper in PATH: %q %v", p, err)
	}
}
