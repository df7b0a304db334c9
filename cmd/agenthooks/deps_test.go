package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// leanBanned is what agenthooks, which agents start before every shell command, must not link:
// what the database commands, team sync, the team server, http hooks, the OpenTelemetry export and the
// secret scanner need (they live in agenthooks-admin and agenthooks-scan), and what a command that runs rarely
// needs but every start would pay for (encoding/xml, for agenthooks test --junit, is written by
// hand in internal/junit). Each costs its package initialisation and its share of the binary
// on every hook call: SQLite's and net/http's about half a millisecond each. A pattern ending
// in /... is that package and every package under it; any other is one package exactly.
var leanBanned = []string{
	"modernc.org/...", "github.com/jackc/pgx/...", "github.com/zricethezav/gitleaks/...",
	"github.com/agenthooks/agenthooks/server/...", "github.com/agenthooks/agenthooks/internal/admincli/...",
	"github.com/agenthooks/agenthooks/internal/scanner/...", "github.com/agenthooks/agenthooks/teamsync/...",
	"github.com/agenthooks/agenthooks/bundle/...", "net/http/...", "crypto/tls/...", "html/template/...",
	"encoding/xml", "github.com/agenthooks/agenthooks/telemetry/...", "go.opentelemetry.io/...",
	"google.golang.org/grpc/...", "google.golang.org/protobuf/...",
}

// banned reports whether the import path dep matches pattern as leanBanned writes them.
func banned(dep, pattern string) bool {
	if root, ok := strings.CutSuffix(pattern, "/..."); ok {
		return dep == root || strings.HasPrefix(dep, root+"/")
	}
	return dep == pattern
}

func TestBannedPatterns(t *testing.T) {
	for _, c := range []struct {
		dep, pattern string
		want         bool
	}{
		{"net/http", "net/http/...", true}, {"net/http/httptrace", "net/http/...", true},
		{"net/httpx", "net/http/...", false}, {"net", "net/http/...", false},
		{"modernc.org/sqlite", "modernc.org/...", true}, {"modernc.org", "modernc.org/...", true},
		{"encoding/xml", "encoding/xml", true}, {"encoding/xml/internal", "encoding/xml", false},
		{"encoding/xmlish", "encoding/xml", false},
	} {
		if got := banned(c.dep, c.pattern); got != c.want {
			t.Errorf("banned(%q, %q) = %v, want %v", c.dep, c.pattern, got, c.want)
		}
	}
}

// TestLean: agenthooks links none of leanBanned.
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
		for _, b := range leanBanned {
			if banned(d, b) {
				t.Errorf("agenthooks links %s (banned: %s)", d, b)
			}
		}
	}
}

// guardInits are the packages that run initialisation when an agent starts `agenthooks guard
// bash`, on Linux, as released (CGO_ENABLED=0). The list only shrinks: a package that starts
// initialising fails TestLeanInit (keep it out of what agenthooks imports, or build its tables
// on first use), and one that stops fails it too, until it is taken off the list. A new Go
// release may move its own packages' initialisation: then the list follows Go.
var guardInits = []string{
	// the runtime and the standard library the guard uses
	"internal/bytealg", "internal/runtime/gc/scan", "runtime", "math", "errors", "iter", "sync",
	"internal/godebug", "encoding/base32", "encoding/base64", "syscall", "time", "context",
	"internal/poll", "io/fs", "os", "os/signal", "unicode", "reflect", "log", "encoding/json",
	"flag", "log/slog", "path/filepath", "regexp/syntax", "regexp", "golang.org/x/sys/unix",
	// crypto/sha256, for the trust store and the audit chain
	"crypto", "crypto/internal/fips140deps/cpu", "crypto/internal/fips140deps/time", "crypto/internal/fips140",
	"crypto/internal/fips140/sha3", "crypto/internal/fips140/sha256", "crypto/internal/fips140/sha512",
	"crypto/internal/fips140/hmac", "crypto/internal/fips140/check", "crypto/fips140", "crypto/internal/fips140/aes",
	"crypto/internal/fips140/drbg", "crypto/internal/fips140/aes/gcm", "crypto/sha256",
	// the audit store's database/sql, which agenthooks links for the commands it forwards
	"database/sql/driver", "database/sql",
	// configuration and policy files
	"github.com/goccy/go-yaml/token", "github.com/goccy/go-yaml/printer", "github.com/goccy/go-yaml/parser",
	"github.com/goccy/go-yaml", "github.com/pelletier/go-toml/v2",
	// the shell parser: mvdan.cc/sh/v3/fileutil compiles two regular expressions
	"mvdan.cc/sh/v3/fileutil", "mvdan.cc/sh/v3/expand",
	// cobra and pflag (which imports net), for every command but the guard's fast path
	"text/template/parse", "text/template", "vendor/golang.org/x/net/dns/dnsmessage", "net/netip", "net",
	"github.com/spf13/pflag", "github.com/spf13/cobra",
	// agenthooks; internal/prestack grows the stack before the packages whose initialisation recurses
	"github.com/agenthooks/agenthooks/internal/prestack",
	"github.com/agenthooks/agenthooks/dialect/claude", "github.com/agenthooks/agenthooks/dialect/codex",
	"github.com/agenthooks/agenthooks/dialect/cursor", "github.com/agenthooks/agenthooks/dialect/gemini",
	"github.com/agenthooks/agenthooks/dialect/translate", "github.com/agenthooks/agenthooks/audit",
	"github.com/agenthooks/agenthooks/guard/shell", "github.com/agenthooks/agenthooks/guard/policy",
	"github.com/agenthooks/agenthooks/config",
	"github.com/agenthooks/agenthooks/engine",
}

// What each of agenthooks' own packages may allocate when it initialises in `guard bash`: its
// word sets and tables are laid out by the linker or built on first use (guard/shell took 17.6 KB
// in 128 allocations at every start, guard/policy 9.5 KB in 67, when they were maps).
const initBytes, initAllocs = 1024, 16

// TestLeanInit builds agenthooks as it is released and runs `guard bash` on a payload with
// GODEBUG=inittrace=1: the packages that initialise are exactly guardInits, and agenthooks' own
// allocate no more than initBytes in initAllocs each.
func TestLeanInit(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("guardInits is Linux's list; other systems initialise packages of their own")
	}
	if testing.Short() {
		t.Skip("builds agenthooks")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "agenthooks")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "guard", "bash")
	cmd.Env = []string{"HOME=" + dir, "AGENTHOOKS_AUDIT=off", "GODEBUG=inittrace=1"}
	cmd.Stdin = strings.NewReader(`{"session_id":"s","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git status"}}`)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil || stdout.Len() != 0 {
		t.Fatalf("guard bash allowing git status: %v, stdout %q\n%s", err, stdout.String(), stderr.String())
	}
	var inits []string
	checked := 0 // agenthooks' own packages weighed
	for line := range strings.Lines(stderr.String()) {
		// init encoding/json @0.63 ms, 0.003 ms clock, 32 bytes, 2 allocs
		f := strings.Fields(line)
		if len(f) > 2 && f[0] == "init" && strings.HasPrefix(f[2], "@") {
			inits = append(inits, f[1])
		}
		if len(f) > 2 && f[0] == "init" && strings.HasPrefix(f[1], "github.com/agenthooks/agenthooks/") {
			checked++
			bytes, errB := strconv.Atoi(f[len(f)-4])
			allocs, errA := strconv.Atoi(f[len(f)-2])
			if errB != nil || errA != nil || f[len(f)-3] != "bytes," || f[len(f)-1] != "allocs" {
				t.Errorf("GODEBUG=inittrace=1 printed %q, not N bytes, M allocs", line)
			} else if bytes > initBytes || allocs > initAllocs {
				t.Errorf("agenthooks guard bash initialises %s with %d bytes in %d allocations, more than %d bytes or %d: build its tables on first use (sync.OnceValue) or as sorted lists the linker lays out, not maps",
					f[1], bytes, allocs, initBytes, initAllocs)
			}
		}
	}
	if checked == 0 {
		t.Errorf("GODEBUG=inittrace=1 printed no initialisation of agenthooks' own packages:\n%s", stderr.String())
	}
	if len(inits) < 10 {
		t.Fatalf("GODEBUG=inittrace=1 printed %d package initialisations:\n%s", len(inits), stderr.String())
	}
	for _, p := range inits {
		if !slices.Contains(guardInits, p) {
			t.Errorf("agenthooks guard bash initialises %s, which it did not: keep it out of what agenthooks imports, or build what it initialises on first use", p)
		}
	}
	for _, p := range guardInits {
		if !slices.Contains(inits, p) {
			t.Errorf("agenthooks guard bash no longer initialises %s: take it off guardInits", p)
		}
	}
	// The stack is grown before the first initialisation that recurses deeply (mvdan.cc/sh's
	// regular expressions), else they grow it step by step, copying it each time.
	if pre, fu := slices.Index(inits, "github.com/agenthooks/agenthooks/internal/prestack"), slices.Index(inits, "mvdan.cc/sh/v3/fileutil"); pre < 0 || fu >= 0 && pre > fu {
		t.Errorf("internal/prestack initialises at %d, after mvdan.cc/sh/v3/fileutil (%d): %q", pre, fu, inits)
	}
}
