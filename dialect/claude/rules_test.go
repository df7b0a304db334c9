package claude

import "testing"

// TestClaudeRuleMatches: Claude Code's Bash permission rules, in their forms, against the
// command and each command in it. A match keeps the guard's ask.
func TestClaudeRuleMatches(t *testing.T) {
	texts := []string{"./build.sh && git push origin main", "./build.sh", "git push origin main"}
	for _, c := range []struct {
		rule string
		want bool
	}{
		{"Bash", true}, {"Bash(*)", true}, {"Bash()", true},
		{"Bash(git push:*)", true}, {"Bash(git push *)", true}, {"Bash(git:*)", true}, {"Bash(git push origin main)", true},
		{"Bash(./build.sh)", true}, {"Bash(*main)", true}, {"Bash(git * main)", true},
		{"Bash(git pull:*)", false}, {"Bash(rm:*)", false}, {"Bash(gi:*)", false}, {"Bash(git push)", false},
		{"Read(./secrets)", false}, {"WebFetch", false}, {"Bash(git push origin", false},
	} {
		if got := ruleMatches(c.rule, texts); got != c.want {
			t.Errorf("%s: match = %v, want %v", c.rule, got, c.want)
		}
	}
	if !ruleMatches("Bash(rm:*)", []string{"rm"}) {
		t.Error("Bash(rm:*) does not match a bare rm")
	}
}
