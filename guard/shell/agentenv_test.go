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

		// the variables that move every home reach the agent through what runs it
		{`HOME=/tmp/h exec claude -p hi`, true},
		{`HOME=/tmp/h timeout 60 claude -p hi`, true},
		{`HOME=/tmp/h nohup claude -p hi`, true},
		{`HOME=/tmp/h bash -c 'claude -p hi'`, true},
		{`env -i bash -c 'claude -p hi'`, true},
		{`env HOME=/tmp/h timeout 9 codex exec hi`, true},
		{`XDG_CONFIG_HOME=/tmp/x exec opencode run hi`, true},
		{`HOME=/tmp/h node ./node_modules/@anthropic-ai/claude-code/cli.js -p hi`, true},
		{`HOME=/tmp/h timeout 60 make test`, false},
		{`env -i PATH=/usr/bin bash -c 'make test'`, false},
		// sudo sets NAME=VALUE for its command; an agent run as another user reads that user's home
		{`sudo HOME=/tmp/h claude -p hi`, true},
		{`sudo CLAUDE_CONFIG_DIR=/tmp/c claude -p hi`, true},
		{`sudo claude -p hi`, true},
		{`sudo -u builder codex exec hi`, true},
		{`su builder -c 'claude -p hi'`, true},
		{`doas -u builder gemini -p hi`, true},
		{`runuser -u builder -- qwen -p hi`, true},
		{`pkexec claude -p hi`, true},
		{`sudo apt-get install -y jq`, false},
		{`sudo NODE_ENV=production npm test`, false},
		// read in each agent's own code (AgentVariable names the versions)
		{`CLAUDE_CODE_RESTRICTED=1 claude -p hi`, true},
		{`CLAUDE_CODE_MANAGED_SETTINGS_PATH=/tmp/m claude -p hi`, true},
		{`export CLAUDE_CODE_REMOTE_SETTINGS_PATH=/tmp/r.json`, true},
		{`GEMINI_CLI_SYSTEM_SETTINGS_PATH=/tmp/s.json gemini -p hi`, true},
		{`GEMINI_CLI_SYSTEM_DEFAULTS_PATH=/tmp/d.json gemini -p hi`, true},
		{`export GEMINI_CLI_TRUSTED_FOLDERS_PATH=/tmp/t.json`, true},
		{`QWEN_CODE_SYSTEM_DEFAULTS_PATH=/tmp/d.json qwen -p hi`, true},
		{`QWEN_CODE_TRUSTED_FOLDERS_PATH=/tmp/t.json qwen -p hi`, true},
		{`declare -n r=CLAUDE_CONFIG_DIR; r=/tmp/c; export r; claude -p hi`, true},
		// the variable set to its default folder is still refused: the guard cannot know the
		// person had not moved it, and dropping the assignment costs nothing
		{`CLAUDE_CONFIG_DIR=$HOME/.claude claude -p hi`, true},
		// PowerShell and cmd.exe set variables their own ways
		{`pwsh -c '$env:CLAUDE_CONFIG_DIR="/tmp/x"; claude -p hi'`, true},
		{`pwsh -c '$Env:HOME = "/tmp/x"; codex exec hi'`, true},
		{`pwsh -c 'Set-Item Env:CLAUDE_CODE_SIMPLE 1; claude -p hi'`, true},
		{`pwsh -c '[Environment]::SetEnvironmentVariable("CODEX_HOME", "/tmp/x")'`, true},
		{`cmd /c "set CLAUDE_CONFIG_DIR=C:\tmp && claude -p hi"`, true},
		{`cmd /c "set USERPROFILE=C:\tmp && claude -p hi"`, true},
		{`cmd /c "set USERPROFILE=C:\tmp && npm test"`, false},
		{`pwsh -c '$env:FOO="bar"; npm test'`, false},
		{`pwsh -c 'Get-ChildItem env:'`, false},
		{`cmd /c "set NODE_ENV=test && npm test"`, false},
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

		// the agent however it is named or run
		{`c"laude" --bare -p hi`, true},
		{`\claude --bare -p hi`, true},
		{`./node_modules/.bin/claude --bare -p hi`, true},
		{`claude.cmd --bare -p hi`, true},
		{`claude.ps1 --safe-mode -p hi`, true},
		{`cmd /c "claude.cmd --bare -p hi"`, true},
		{`npx @anthropic-ai/claude-code@latest --bare -p hi`, true},
		{`pnpm dlx @anthropic-ai/claude-code@2.1.0 --bare -p hi`, true},
		{`npx @openai/codex@latest exec --ignore-user-config hi`, true},
		{`npx -y @moonshot-ai/kimi-code@latest -p hi`, false},
		{`npm exec @anthropic-ai/claude-code -- --bare -p hi`, true},
		{`npm x -y @anthropic-ai/claude-code -- --bare -p hi`, true},
		{`npm exec -- @anthropic-ai/claude-code -- --bare -p hi`, false}, // npm keeps the second "--": a prompt
		{`npm exec @anthropic-ai/claude-code -- -p hi`, false},
		{`node ~/.npm-global/lib/node_modules/@anthropic-ai/claude-code/cli.js --bare -p hi`, true},
		{`bun node_modules/opencode-ai/bin/opencode run --pure hi`, true},
		{`node /usr/local/bin/claude --bare -p hi`, true},
		{`node ./node_modules/@anthropic-ai/claude-code/cli.js -p hi`, false},
		{`node scripts/claude.js --bare`, false},
		{`node -e 'console.log(1)' --bare`, false},
		{`F=--bare; claude $F -p hi`, true},
		{`alias c='claude --bare'; c -p hi`, true},
		{`c() { claude "$@"; }; c --bare -p hi`, true},
		{`exec claude --bare -p hi`, true},
		{`sudo claude --bare -p hi`, true},
		{`echo hi | xargs claude --bare -p`, true},
		{`pwsh -c 'claude --bare -p hi'`, true},
		// flag forms: "=", after "--" (the prompt, not a flag), case (Claude Code's parser is exact)
		{`claude --bare=true -p hi`, true},
		{`claude -- --bare`, false},
		{`claude --BARE -p hi`, false},
		// Codex 0.169.0
		{`codex exec --ignore-user-config hi`, true},
		{`codex exec -c=features.hooks=false hi`, true},
		{`codex -c '"features"."hooks"=false' exec hi`, true},
		{`codex exec --disable=codex_hooks hi`, true},
		{`codex exec --profile work hi`, false},
		{`codex -p work exec hi`, false},
		{`codex exec --ignore-rules hi`, false},
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
		{"codex", "--ignore-user-config", ""},
	} {
		if !IsAgentCLI(c.program) {
			t.Errorf("%s is not one of agentCLIs", c.program)
		}
		if AgentFlag(c.program, c.flag, c.value) == "" || AgentFlag(c.program+".exe", c.flag, c.value) == "" {
			t.Errorf("AgentFlag(%s, %s, %s) = \"\"", c.program, c.flag, c.value)
		}
	}
	for _, pkg := range []string{"claude-code", "opencode-ai", "gemini-cli", "qwen-code", "kimi-code", "codex", "copilot"} {
		if !IsAgentCLI(agentPackage(pkg)) {
			t.Errorf("agentPackage(%s) = %q, not one of agentCLIs", pkg, agentPackage(pkg))
		}
	}
}
