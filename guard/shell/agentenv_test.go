package shell

import (
	"slices"
	"testing"
)

// agentCLIs is searched by halves: out of order, it would miss names without a sound.
func TestAgentCLIsSorted(t *testing.T) {
	if !slices.IsSorted(agentCLIs) || len(slices.Compact(slices.Clone(agentCLIs))) != len(agentCLIs) {
		t.Errorf("agentCLIs is not sorted or repeats a name: %q", agentCLIs)
	}
	for _, n := range agentCLIs {
		if !IsAgentCLI(n) || !IsAgentCLI(n+".exe") {
			t.Errorf("IsAgentCLI(%q) = false", n)
		}
	}
	if IsAgentCLI("git") || IsAgentCLI("") {
		t.Error("IsAgentCLI takes git or nothing for an agent's program")
	}
}

// The variables that move an agent's configuration are found however they are set; reading
// them, or giving another program a home, is not a finding.
func TestAgentEnvFindings(t *testing.T) {
	for _, c := range []struct {
		cmd  string
		want bool
	}{
		{`CLAUDE_CONFIG_DIR=/tmp/c claude -p hi`, true},
		{`export OPENCODE_CONFIG_DIR=/tmp/x`, true},
		{`declare -x CODEX_HOME=/tmp/x`, true},
		{`env CLINE_DIR=/tmp/x cline`, true},
		{`OPENCODE_PURE=1`, true},
		{`HOME=/tmp/h claude -p hi`, true},
		{`env XDG_CONFIG_HOME=/tmp/x opencode run hi`, true},
		{`env -S 'HOME=/tmp/h codex' exec hi`, true},
		{`HOME=/tmp/h ./node_modules/.bin/claude -p hi`, true},
		{`export HOME=/tmp/h; claude -p hi`, true},
		{`HOME=/tmp/h && cd x && opencode run hi`, true},
		{`export XDG_CONFIG_HOME=/tmp/x; make; crush run hi`, true},
		{`export HOME=/tmp/h; make test`, false},
		{`(HOME=/tmp/h; make); claude -p hi`, false},
		{`unset CLAUDE_CONFIG_DIR; claude -p hi`, true},
		{`env -u CODEX_HOME codex exec hi`, true},
		{`env --unset=COPILOT_HOME copilot -p hi`, true},
		{`env -uOPENCODE_CONFIG_DIR opencode run hi`, true},
		{`env -i PATH=/usr/bin claude -p hi`, true},
		{`env - claude -p hi`, true},
		{`env -i PATH=/usr/bin make test`, false},
		{`unset GOPATH`, false},
		{`env -u GOFLAGS go test ./...`, false},
		{`echo "$CLAUDE_CONFIG_DIR"`, false},
		{`HOME=/tmp/h make test`, false},
		{`env HOME=/tmp/h git config --global user.name x`, false},
		{`claude -p hi`, false},
	} {
		s := Analyze(c.cmd, Options{})
		got := slices.ContainsFunc(s.Findings, func(f Finding) bool { return f.Kind == FindingAgentEnv })
		if got != c.want {
			t.Errorf("%q: agent-env finding %v, want %v (%+v)", c.cmd, got, c.want, s.Findings)
		}
	}
}

// The agents' own flags that drop the hooks the user installed are found wherever the agent
// runs; its ordinary invocations, and the same words as text, are not.
func TestAgentFlagsFindings(t *testing.T) {
	for _, c := range []struct {
		cmd  string
		want bool
	}{
		{`claude --bare -p hi`, true},
		{`claude -p hi --safe-mode`, true},
		{`claude --restricted -p hi`, true},
		{`claude --settings /tmp/s.json -p hi`, true},
		{`claude --settings='{"disableAllHooks":true}' -p hi`, true},
		{`claude --managed-settings /tmp/m.json -p hi`, true},
		{`claude --setting-sources project -p hi`, true},
		{`claude --setting-sources=user,project -p hi`, true},
		{`claude --setting-sources "$S" -p hi`, true},
		{`/usr/local/bin/claude.exe --bare`, true},
		{`bash -c 'claude --bare -p hi'`, true},
		{`npx claude --bare -p hi`, true},
		{`npx -y @anthropic-ai/claude-code --bare -p hi`, true},
		{`bunx opencode-ai run --pure hi`, true},
		{`opencode run --pure hi`, true},
		{`codex exec -c features.hooks=false hi`, true},
		{`codex -c 'hooks.state={}' exec hi`, true},
		{`codex exec -chooks={} hi`, true},
		{`codex exec --config=features='{hooks=false}' hi`, true},
		{`codex exec --disable hooks hi`, true},
		{`codex exec --disable=hooks hi`, true},
		{`codex exec -c "$K=1" hi`, true},
		{`qwen --bare -p hi`, true},
		{`qwen --safe-mode -p hi`, true},
		{`cline --hooks-dir /tmp/h -y hi`, true},
		{`cline --config=/tmp/c hi`, true},
		{`droid exec --settings /tmp/s.json hi`, true},

		{`claude -p hi`, false},
		{`claude --setting-sources user,project,local -p hi`, false},
		{`claude --dangerously-skip-permissions -p hi`, false},
		{`claude -p hi --permission-mode bypassPermissions`, false},
		{`claude -p "run it with --bare"`, false},
		{`claude -p -- --bare`, false},
		{`claude --version`, false},
		{`opencode run hi`, false},
		{`codex exec hi`, false},
		{`codex exec -c model="o3" hi`, false},
		{`codex exec -c "model=$M" hi`, false},
		{`codex exec --enable hooks hi`, false},
		{`codex exec --disable web_search hi`, false},
		{`qwen --yolo -p hi`, false},
		{`gemini -e none -p hi`, false},
		{`cline config`, false},
		{`copilot -p hi --allow-all-tools`, false},
		{`echo claude --bare`, false},
		{`grep -r -- --bare .`, false},
		{`mytool --bare --settings x`, false},
		{`npx @anthropic-ai/claude-code -p hi`, false},
	} {
		s := Analyze(c.cmd, Options{})
		got := slices.ContainsFunc(s.Findings, func(f Finding) bool { return f.Kind == FindingAgentFlags })
		if got != c.want {
			t.Errorf("%q: agent-flags finding %v, want %v (%+v)", c.cmd, got, c.want, s.Findings)
		}
	}
}

// Each program AgentFlag knows flags of is an agent's command line, and each of its flags is
// found: a program misspelt in the table would miss its flags without a sound.
func TestAgentFlagPrograms(t *testing.T) {
	for _, c := range []struct{ program, flag, value string }{
		{"claude", "--bare", ""}, {"claude", "--safe-mode", ""}, {"claude", "--restricted", ""},
		{"claude", "--settings", "x"}, {"claude", "--managed-settings", "x"}, {"claude", "--setting-sources", "user"},
		{"opencode", "--pure", ""}, {"codex", "-c", "hooks.x=1"}, {"codex", "--config", "features.hooks=false"},
		{"codex", "--disable", "hooks"}, {"qwen", "--bare", ""}, {"qwen", "--safe-mode", ""},
		{"cline", "--config", "x"}, {"cline", "--hooks-dir", "x"}, {"droid", "--settings", "x"},
	} {
		if !IsAgentCLI(c.program) {
			t.Errorf("%s is not one of agentCLIs", c.program)
		}
		if AgentFlag(c.program, c.flag, c.value) == "" || AgentFlag(c.program+".exe", c.flag, c.value) == "" {
			t.Errorf("AgentFlag(%s, %s, %s) = \"\"", c.program, c.flag, c.value)
		}
	}
	for _, pkg := range []string{"claude-code", "opencode-ai", "gemini-cli", "qwen-code"} {
		if !IsAgentCLI(agentPackage(pkg)) {
			t.Errorf("agentPackage(%s) = %q, not one of agentCLIs", pkg, agentPackage(pkg))
		}
	}
}
