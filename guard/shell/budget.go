package shell

import (
	"cmp"
	"errors"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// The work budget bounds what one analysis does, whatever the command: parsing (the command,
// nested shells, eval, scripts read from the workspace), the walk of every statement, the
// expansion of words, interpreter code, SQL and Windows command lines. Work is counted in units
// of roughly 0.1 µs of the slowest kind, never timed, so an analysis is deterministic: the same
// command always reads as far. When the budget runs out the analysis stops where it is and
// reports FindingTooDeep, which the policy answers with ask, or deny when what was read before
// is already denied: never allow.

// DefaultBudget is the work one analysis may do: at most about 3 ms of CPU for the most
// expensive commands an agent can send (BenchmarkWorstCase in guard, docs/performance.md), and
// far more than everyday commands need (git status 95, a 15-command CI one-liner about 2,000,
// a 20 KB heredoc written into the project 5,000 to 13,000).
const DefaultBudget = 20000

// Costs of the analysis' steps, in budget units.
const (
	costStmt       = 10 // a statement walked
	costWord       = 6  // a word expanded
	costInvocation = 40 // an invocation recorded, and judged by the policy after
	costArg        = 14 // each of its arguments, classified by the policy (paths resolved)
	costFinding    = 16 // a finding, judged by the policy
	costWrap       = 1  // a wrapper peeled (sudo, env, timeout, ...)
	costScope      = 1  // per variable copied when a subshell or pipeline stage starts
	// costByte is a byte of interpreter code, SQL or a Windows command line handed to its
	// reader (guard/code, guard/sqlc, guard/winshell): ordinary JavaScript costs guard/code
	// about as much per byte as the slowest shell costs the parser per unit.
	costByte = 1
	// costBlockWord is added for a block keyword (if, then, do, done, ...): see blockWord.
	costBlockWord = 5
	// walkReserve is what parsing a text leaves at least for judging it, when the budget
	// left is more than twice as much: about 50 commands.
	walkReserve = 2000
)

// MaxWrappers bounds how many different wrappers one command may be found inside (sudo env
// timeout ...; a wrapper repeated right after itself counts once).
const MaxWrappers = 32

// errBudget stops the parser when the text it reads would cost more than the budget left;
// errNesting says that the text nests deeper than MaxNesting, found before parsing it.
var (
	errBudget  = errors.New("work budget ran out")
	errNesting = errors.New("nested too deep")
)

// BudgetMessage is what the finding says when the budget runs out.
const BudgetMessage = "the command is too large or complex to judge fully (the guard's work budget ran out); only what was read before is judged"

// spend charges n units of work. It reports false, and records FindingTooDeep the first time,
// when the budget is spent.
func (a *analyzer) spend(n int) bool {
	if a.spent {
		return false
	}
	a.left -= n
	if a.left >= 0 {
		return true
	}
	a.spent = true
	a.cutShort()
	return false
}

// cutShort records, once, that the analysis did not read everything.
func (a *analyzer) cutShort() {
	if !a.short {
		a.short = true
		a.find(FindingTooDeep, a.at, -1, BudgetMessage)
	}
}

// afford charges the reading of n bytes of text by another reader (interpreter code, SQL, a
// Windows command line) when the budget left covers it. When it does not, the text is not read
// (the analysis is cut short: ask), and the budget is kept for the rest of the command, so that
// python3 big.py && rm -rf ~ is still denied.
func (a *analyzer) afford(n int) bool {
	if a.spent {
		return false
	}
	if n*costByte > a.left {
		a.cutShort()
		return false
	}
	a.left -= n * costByte
	return true
}

// parseCost estimates what parsing src costs, in budget units, without parsing it (about 1 ns a
// byte): one unit per word and per operator or quote character, two per statement separator,
// five more per block keyword, and one per 16 bytes. It follows neither quotes nor heredocs, so text that parses cheaply (a
// quoted string, a heredoc body) is overcharged, never the reverse; on the shapes measured
// (BenchmarkWorstCase, and 30 kinds of 64 KB text) mvdan.cc/sh spends 4 to 70 ns a unit. It
// stops at the first byte where the cost passes limit and returns that offset as cut, else
// len(src).
func parseCost(src string, limit int) (cost, cut int) {
	inWord, start := false, 0
	for i := 0; i < len(src); i++ {
		c := src[i]
		word := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' || c == '/' || c == ',' || c == ':' || c == '=' || c == '+' || c == '@' || c == '%' || c >= 0x80
		switch {
		case word && !inWord:
			cost++
			start = i
		case !word && inWord && blockWord(src[start:i]):
			cost += costBlockWord
		}
		if !word {
			switch c {
			case ' ', '\t':
			case '\n', ';', '|', '&':
				cost += 2
			default:
				cost++
			}
		}
		inWord = word
		if i&15 == 0 {
			cost++
		}
		if cost > limit {
			return cost, i
		}
	}
	if inWord && blockWord(src[start:]) {
		cost += costBlockWord
	}
	return cost, len(src)
}

// blockWord reports whether w is a keyword that opens, continues or closes a block. Blocks
// nested thousands deep cost the parser more than linearly, and nesting does not count the
// ones in heredoc bodies.
func blockWord(w string) bool {
	switch w {
	case "if", "then", "elif", "else", "fi", "case", "esac", "while", "until", "for", "select", "do", "done":
		return true
	}
	return false
}

// cutReader gives the parser the text up to cut, then errBudget.
type cutReader struct {
	src string
	off int
	cut int
}

func (r *cutReader) Read(p []byte) (int, error) {
	if r.off >= r.cut {
		return 0, errBudget
	}
	n := copy(p, r.src[r.off:r.cut])
	r.off += n
	return n, nil
}

// parse parses src within the budget left. When the whole text would cost more, it parses
// only as far as the budget goes and returns the statements read completely before that
// point, with the budget spent, and read is the text they span. err is a parse error,
// errNesting when the text nests past MaxNesting (read is then what was looked at), or
// errBudget when the budget was already spent.
func (a *analyzer) parse(src string) (file *syntax.File, read string, err error) {
	if a.spent || !a.spend(1) {
		return nil, "", errBudget
	}
	// What is parsed must leave budget to judge it: half of what is left, at most walkReserve.
	reserve := min(a.left/2, walkReserve)
	cost, cut := parseCost(src, a.left-reserve)
	if cut == len(src) {
		a.spend(cost)
		if nesting(src) > MaxNesting {
			return nil, src, errNesting
		}
		file, err := a.parser.Parse(strings.NewReader(src), "")
		return file, src, err
	}
	// Too long to read whole: its start is parsed as far as the budget goes, and judged.
	a.left -= cost
	a.cutShort()
	if nesting(src[:cut]) > MaxNesting {
		return nil, src[:cut], errNesting
	}
	file = &syntax.File{}
	var perr error
	// The loop never breaks: StmtsSeq (mvdan.cc/sh v3.14.1) yields again after a break when
	// the parser stopped on an error, which a range-over-func loop turns into a panic.
	for s, err := range a.parser.StmtsSeq(&cutReader{src: src, cut: cut}) {
		switch {
		case err != nil:
			perr = cmp.Or(perr, err)
		case perr == nil && s != nil:
			file.Stmts = append(file.Stmts, s)
		}
	}
	if perr != nil && perr != errBudget {
		return nil, "", perr
	}
	end := 0
	if n := len(file.Stmts); n > 0 {
		end = min(int(file.Stmts[n-1].End().Offset()), len(src))
	}
	return file, src[:end], nil
}
