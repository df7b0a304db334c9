package dialect

import (
	"fmt"
	"path/filepath"
	"strings"
)

// MaxRulesFile bounds what is read of one of an agent's rules or settings files.
const MaxRulesFile = 4 << 20

// RulesQuery is a shell command put to an agent's own permission rules (Agent.OwnRules) before
// agenthooks rewrites it to run confined: the rewritten command (agenthooks confine ... -- bash
// -c '...') no longer matches them, so a rewrite would otherwise run what the person's own rules
// stop or ask about.
type RulesQuery struct {
	// Command is the command line as written; Calls are the commands in it, as the shell guard
	// reads them.
	Command string
	Calls   []RulesCall
	// Cwd is where it runs, Project the project's root, Home the user's home folder ("" for
	// none), UserDir the agent's user folder as the agent finds it (Agent.UserDir: moved by its
	// variables, else in Home; "" for none).
	Cwd, Project, Home, UserDir string
	// Getenv reads the environment the agent runs in.
	Getenv func(string) string
	// Files are the agent's files for Project, found from its descriptor's Files (managed,
	// team, local, project, user), in priority order.
	Files []string
}

// RulesCall is one command of a command line: its words, and the wrappers before it as text
// ("sudo", "env FOO=1"). Words may be empty (an assignment alone).
type RulesCall struct {
	Words    []string
	Wrappers []string
}

// Subjects are what an agent's rules are matched against: the command as written and each
// command in it, as text and as words (a wrapper's words before the command it runs, as the
// agent sees them; the bare name of a command given by path; the whole script as bash -lc's
// argv, as Codex matches a script it cannot split).
func (q RulesQuery) Subjects() (texts []string, argvs [][]string) {
	texts = append(texts, strings.TrimSpace(q.Command))
	argvs = append(argvs, []string{"bash", "-lc", q.Command})
	for _, c := range q.Calls {
		words := c.Words
		if len(words) == 0 {
			continue
		}
		texts = append(texts, strings.Join(words, " "))
		argvs = append(argvs, words)
		if base := filepath.Base(words[0]); base != words[0] {
			argvs = append(argvs, append([]string{base}, words[1:]...))
		}
		for _, w := range c.Wrappers {
			wrapped := append(strings.Fields(w), words...)
			argvs = append(argvs, wrapped)
			texts = append(texts, strings.Join(wrapped, " "))
		}
	}
	return texts, argvs
}

// Unreadable says that one of an agent's rules files cannot be read as the agent reads it, so
// the command is not confined rather than guessed.
func Unreadable(agent, what string, err error) string {
	return fmt.Sprintf("%s %s cannot be read as %s reads it (%v), and not confined rather than guessed", agent, what, agent, err)
}
