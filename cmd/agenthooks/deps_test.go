package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLean: agenthooks, which agents start before every shell command, links none of what the
// database commands, team sync, the team server, http hooks, the OpenTelemetry export and the
// secret scanner need: each
// adds its package initialisation to every hook call (SQLite's and net/http's each cost about
// half a millisecond). They live in agenthooks-admin and agenthooks-scan.
func TestLean(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 50 {
		t.Fatalf("go list -deps printed %d packages: %s", len(deps), out)
	}
	for _, d := range deps {
		for _, banned := range []string{"modernc.org/", "github.com/jackc/pgx", "github.com/zricethezav/gitleaks",
			"github.com/agenthooks/agenthooks/server", "github.com/agenthooks/agenthooks/internal/admincli",
			"github.com/agenthooks/agenthooks/internal/scanner", "github.com/agenthooks/agenthooks/teamsync",
			"github.com/agenthooks/agenthooks/bundle", "net/http", "crypto/tls", "html/template",
			"github.com/agenthooks/agenthooks/telemetry", "go.opentelemetry.io/", "google.golang.org/grpc", "google.golang.org/protobuf"} {
			if d == banned || strings.HasPrefix(d, banned) {
				t.Errorf("agenthooks links %s", d)
			}
		}
	}
}
