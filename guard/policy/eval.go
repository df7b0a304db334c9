package policy

import (
	"fmt"
	"slices"
	"strings"

	"github.com/agenthooks/agenthooks/guard/shell"
)

// Match is one rule (or the allowlist's absence) that applied to a command.
type Match struct {
	Rule     string    `json:"rule"`
	Pack     string    `json:"pack,omitempty"`
	Decision Decision  `json:"decision"`
	Message  string    `json:"message"`
	Subject  string    `json:"subject"`
	Pos      shell.Pos `json:"pos"`
}

func (m Match) String() string {
	return fmt.Sprintf("%s: %s: %s", m.Rule, m.Message, m.Subject)
}

// InvocationResult is how one invocation was judged.
type InvocationResult struct {
	Argv      []string  `json:"argv"`
	Wrappers  []string  `json:"wrappers,omitempty"`
	Pos       shell.Pos `json:"pos"`
	Depth     int       `json:"depth,omitempty"`
	Decision  Decision  `json:"decision"`
	Rules     []string  `json:"rules,omitempty"`
	AllowedBy string    `json:"allowed_by,omitempty"`
}

// Verdict is the judgement of one command.
type Verdict struct {
	Decision    Decision           `json:"decision"`
	Reason      string             `json:"reason"`
	Matches     []Match            `json:"matches,omitempty"`
	Invocations []InvocationResult `json:"invocations"`
}

// The pseudo-rule ids of decisions no rule made.
const (
	// RuleDynamicName judges a command whose program is not known until it runs.
	RuleDynamicName = "dynamic-program"
	RuleUnknown     = "unknown-command"
	RuleOpaque      = "cannot-analyse"
)

// Evaluate judges the analysed command: every invocation against the rules, then the allowlist,
// then the unknown-command decision; every structural finding against the rules that name it;
// every masked text against the pattern rules. The verdict is the strongest decision.
func (p *Policy) Evaluate(s *shell.Script, ctx Context) Verdict {
	ctx = BashPaths(ctx) // Windows: the paths as the script's bash reads them
	c := &classifier{ctx: ctx}
	pr := newProtector(ctx)
	v := Verdict{Decision: Allow, Invocations: make([]InvocationResult, 0, len(s.Invocations))}
	plain := make([]int8, len(p.Rules)) // per rule, found on first need: see programMayMatch
	var known []nameRules               // per program name: see rulesFor
	for i := range s.Invocations {
		inv := &s.Invocations[i]
		res := InvocationResult{Argv: argv(inv, ctx.Home), Wrappers: inv.Wrappers, Pos: inv.Pos, Depth: inv.Depth}
		view := newView(inv)
		for _, j := range p.rulesFor(view.name, plain, &known) {
			r := p.Rules[j]
			if ok, arg, class := r.matchInvocation(view, c); ok {
				res.Rules = append(res.Rules, r.ID)
				res.Decision = stronger(res.Decision, r.Decision)
				subject := strings.Join(res.Argv, " ")
				if class != "" {
					subject += " → " + tildeHome(arg, ctx.Home) + " (" + class + ")"
				}
				v.Matches = append(v.Matches, Match{Rule: r.ID, Pack: r.Pack, Decision: r.Decision, Message: r.Message, Subject: subject, Pos: inv.Pos})
			}
		}
		// The protections, which no policy switches off, for what the rules did not deny
		// already (rm -rf ~ is reason enough without the configs it takes with it).
		for _, m := range pr.invocation(inv, res.Decision == Deny) {
			res.Rules = append(res.Rules, m.Rule)
			res.Decision = stronger(res.Decision, m.Decision)
			v.Matches = append(v.Matches, m)
		}
		if res.Decision == "" {
			// no rule decided: what it destroys on other machines
			if m, ok := remoteJudgement(view, s, i); ok {
				res.Rules = append(res.Rules, m.Rule)
				res.Decision = m.Decision
				if m.Decision != Allow {
					m.Subject = strings.Join(res.Argv, " ")
					v.Matches = append(v.Matches, m)
				} else {
					res.AllowedBy = "(" + m.Rule + ": " + m.Message + ")"
				}
			}
		}
		if res.Decision == "" {
			// no rule decided: the verbs of its subcommand path
			if m, ok := verbJudgement(view); ok {
				m, _ = clusterTarget(view, m)
				res.Rules = append(res.Rules, m.Rule)
				res.Decision = m.Decision
				m.Subject = strings.Join(res.Argv, " ")
				v.Matches = append(v.Matches, m)
			}
		}
		if res.Decision == "" {
			if entry := p.allowedBy(view); entry != "" {
				res.Decision, res.AllowedBy = Allow, entry
			} else {
				res.Decision = p.Unknown
				if p.Unknown != Allow {
					v.Matches = append(v.Matches, Match{Rule: RuleUnknown, Decision: p.Unknown, Pos: inv.Pos,
						Message: "not on the allowlist", Subject: strings.Join(res.Argv, " ")})
				}
			}
		}
		v.Invocations = append(v.Invocations, res)
	}
	if m, ok := pr.exfiltration(s); ok {
		v.Matches = append(v.Matches, m)
	}
	for i := range s.Invocations {
		if m, ok := servesHome(&s.Invocations[i], c); ok {
			m.Subject = strings.Join(argv(&s.Invocations[i], ctx.Home), " ")
			v.Matches = append(v.Matches, m)
		}
	}
	for i := range s.Invocations {
		if inv := &s.Invocations[i]; reverseShell(inv) {
			v.Matches = append(v.Matches, Match{Rule: RuleReverseShell, Decision: Deny, Pos: inv.Pos,
				Subject: Plain(strings.Join(argv(inv, ctx.Home), " ")), Message: "hands a shell to another machine"})
		}
	}
	for _, f := range s.Findings {
		if m, ok := pr.finding(f); ok {
			v.Matches = append(v.Matches, m) // a protection: no policy switches it off
			continue
		}
		matched := false
		for _, r := range p.Rules {
			if slices.Contains(r.Findings, f.Kind) {
				matched = true
				if !p.enabled(r) {
					continue // switched off by the policy's packs: nothing, not the fallback
				}
				v.Matches = append(v.Matches, Match{Rule: r.ID, Pack: r.Pack, Decision: r.Decision, Message: r.Message, Subject: f.Message, Pos: f.Pos})
			}
		}
		if matched {
			continue
		}
		switch f.Kind {
		case shell.FindingDynamicName:
			// A program not known until it runs can be any program: asked, and denied when
			// it is aimed at what a recursive delete must never reach ($CMD -rf /).
			m := Match{Rule: RuleDynamicName, Decision: stronger(p.Unknown, Ask), Message: "the program is not known until it runs", Subject: f.Message, Pos: f.Pos}
			if f.Invocation >= 0 && f.Invocation < len(s.Invocations) {
				if arg, class := dangerousOperand(&s.Invocations[f.Invocation], c); class != "" {
					m.Decision, m.Message = Deny, "a program not known until it runs, aimed at "+tildeHome(arg, ctx.Home)+" ("+class+")"
				}
			}
			v.Matches = append(v.Matches, m)
		case shell.FindingDynamicScript, shell.FindingShellStdin:
			if p.Unknown != Allow {
				v.Matches = append(v.Matches, Match{Rule: RuleUnknown, Decision: p.Unknown, Message: "cannot be seen before it runs", Subject: f.Message, Pos: f.Pos})
			}
		default:
			// What the guard cannot analyse, or a dangerous structure no rule names, is never
			// a silent allow.
			v.Matches = append(v.Matches, Match{Rule: RuleOpaque, Decision: stronger(p.Unknown, Ask), Message: f.Kind, Subject: f.Message, Pos: f.Pos})
		}
	}
	for _, r := range p.Rules {
		if r.Pattern == nil || !p.enabled(r) {
			continue
		}
		for _, text := range s.Masked {
			if loc := r.Pattern.FindStringIndex(text); loc != nil {
				v.Matches = append(v.Matches, Match{Rule: r.ID, Decision: r.Decision, Message: r.Message, Subject: strings.TrimSpace(text[loc[0]:loc[1]])})
				break
			}
		}
	}
	for _, inv := range v.Invocations {
		v.Decision = stronger(v.Decision, inv.Decision)
	}
	for i, m := range v.Matches {
		v.Decision = stronger(v.Decision, m.Decision)
		v.Matches[i].Subject, v.Matches[i].Message = Plain(m.Subject), Plain(m.Message)
	}
	v.Reason = reason(v)
	return v
}

// Plain is s as a message shows it: what is known only at run time as $(…), and control
// characters (a file name's newline, an escape) written as \xNN, so no internal marker or
// terminal escape reaches a person or the model.
func Plain(s string) string {
	s = strings.ReplaceAll(s, shell.Dyn, "$(…)")
	if !strings.ContainsFunc(s, isControl) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if isControl(r) {
			fmt.Fprintf(&b, "\\x%02x", r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isControl(r rune) bool { return r < 0x20 && r != '\t' || r == 0x7f || r >= 0x80 && r < 0xa0 }

// dangerousOperand returns an operand of inv that is the root, home, a system folder, a parent
// of the project, the project itself or .git, with its class, or "".
func dangerousOperand(inv *shell.Invocation, c *classifier) (string, string) {
	for _, w := range inv.Args[1:] {
		if w.Static && strings.HasPrefix(w.Value, "-") {
			continue
		}
		switch class := c.classify(w, inv); class {
		case TargetRoot, TargetHome, TargetSystem, TargetParent, TargetProjectRoot, TargetGit:
			return w.Value, class
		}
	}
	return "", ""
}

func (p *Policy) allowedBy(v *view) string {
	if v.name == "" {
		return ""
	}
	if builtins.has(v.name) {
		return "(shell builtin)"
	}
	if v.inv.Function {
		return "(function defined in the command)"
	}
	if v.inv.Followed {
		return "(a script the guard read: judged by its commands)"
	}
	for _, entry := range p.Allow {
		if v.isProgram(entry[0]) && v.hasSub(entry[1:]) {
			return strings.Join(entry, " ")
		}
	}
	return ""
}

func stronger(a, b Decision) Decision {
	if b.Rank() > a.Rank() {
		return b
	}
	return a
}

// argv is the invocation as a person reads it, with the home folder shown as ~.
func argv(inv *shell.Invocation, home string) []string {
	out := make([]string, len(inv.Args))
	for i, w := range inv.Args {
		out[i] = tildeHome(w.Display(), home)
	}
	return out
}

func tildeHome(s, home string) string {
	if home == "" || home == "/" {
		return s
	}
	if s == home {
		return "~"
	}
	if rest, ok := strings.CutPrefix(s, home+"/"); ok {
		return "~/" + rest
	}
	return s
}

// reason is one line naming what decided: the first match at the verdict's decision.
// That the command was too large to read whole comes first: what follows was judged on part.
func reason(v Verdict) string {
	var parts []string
	for _, first := range []bool{true, false} {
		for _, m := range v.Matches {
			if m.Decision == v.Decision && (m.Subject == shell.BudgetMessage) == first {
				parts = append(parts, m.String())
			}
		}
	}
	if len(parts) == 0 {
		if len(v.Invocations) == 0 {
			return "nothing to run"
		}
		return "every command is allowed"
	}
	if len(parts) > 3 {
		parts = append(parts[:3], fmt.Sprintf("and %d more", len(parts)-3))
	}
	return strings.Join(parts, "; ")
}

// nameRules are the rules that may match invocations of one program name.
type nameRules struct {
	name  string
	rules []int // indices in Policy.Rules, in order
}

// rulesFor returns, in order, the indices of the invocation rules switched on that may match an
// invocation of the program name (programMayMatch). Found once per name across a command's
// invocations (npm ci && npm run build): known holds the names met so far.
func (p *Policy) rulesFor(name string, plain []int8, known *[]nameRules) []int {
	for _, k := range *known {
		if k.name == name {
			return k.rules
		}
	}
	var rules []int
	for j, r := range p.Rules {
		if programMayMatch(r.Commands, name, &plain[j]) && r.kind() == "invocation" && p.enabled(r) {
			rules = append(rules, j)
		}
	}
	*known = append(*known, nameRules{name, rules})
	return rules
}

// programMayMatch reports whether one of a rule's program patterns may match the program name:
// false only when every pattern is a plain name (no glob, no slash) other than it, which
// isProgram would refuse too. Most rules name other programs; they are skipped before
// matchInvocation builds anything. plain remembers, across the invocations of one command,
// whether the patterns are all plain names (1) or not (2); 0 is not known yet.
func programMayMatch(patterns []string, name string, plain *int8) bool {
	if *plain == 0 {
		*plain = 1
	scan:
		for _, c := range patterns {
			for i := 0; i < len(c); i++ { // not strings.ContainsAny: see hasGlob
				if b := c[i]; b <= '?' && (b == '*' || b == '?' || b == '/') { // letters are above '?'
					*plain = 2
					break scan
				}
			}
		}
	}
	return *plain == 2 || slices.Contains(patterns, name)
}
