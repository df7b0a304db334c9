package shell

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// Limits of one analysis.
const (
	DefaultMaxDepth       = 6
	DefaultMaxLen         = 128 << 10
	DefaultMaxInvocations = 2000
	// MaxNesting bounds how deep brackets nest in one script: ( { $( <( [[ and the keywords
	// that open a block. Real commands stay far below it; a command nested thousands deep
	// would cost the parser and the analysis seconds and gigabytes.
	MaxNesting = 100
)

// Dyn marks what cannot be known statically inside a resolved word. It is not a NUL byte:
// command substitution drops those, as bash does.
const Dyn = "\x1b\x1d"

// Options are the facts the analysis starts from.
type Options struct {
	Home string // the user's home folder: what ~ and $HOME become
	Cwd  string // the working directory the command starts in ("" unknown)
	// MaxDepth bounds nested shells, eval and interpreter code; MaxLen the command's length;
	// MaxInvocations the invocations one analysis may produce; Budget the work it may do
	// (budget.go), DefaultBudget when zero.
	MaxDepth, MaxLen, MaxInvocations, Budget int
	// LookPath, when set, finds a program in PATH (read-only), so that $(which NAME) and
	// $(command -v NAME) are known; unset, they are dynamic.
	LookPath func(name string) string
	// ReadFile, when set, reads a file the command runs as a script (bash x.sh, ./x.sh,
	// source x.sh, python3 x.py, the package.json of npm run, the Makefile of make), by
	// absolute path, read-only; false when it cannot be read. Unset, scripts are not read.
	ReadFile func(path string) (string, bool)
}

// Word is one resolved argument.
type Word struct {
	Value  string `json:"value"`            // with Dyn where a part is not static
	Static bool   `json:"static"`           // fully known
	Glob   bool   `json:"glob,omitempty"`   // has unquoted glob characters
	Raw    string `json:"raw,omitempty"`    // as written
	Source string `json:"source,omitempty"` // where a synthesized word comes from ("stdin", "find")
	// From holds, as written, where the word's value comes from elsewhere on the line: what the
	// variables it expands were copied from (T=$GH_TOKEN; curl -d "$T": "$GH_TOKEN"), through
	// every copy, and, for the items xargs puts in its place, the pipeline that prints them as
	// a command substitution ("$(redis-cli --scan)") (taint.go).
	From []string `json:"from,omitempty"`
}

// Display is the word as a person reads it: dynamic parts shown as $(…).
func (w Word) Display() string {
	if w.Static {
		return w.Value
	}
	if w.Raw != "" {
		return w.Raw
	}
	return strings.ReplaceAll(w.Value, Dyn, "$(…)")
}

// Pos is a place in the command as given: 1-based line and column.
type Pos struct {
	Line int `json:"line"`
	Col  int `json:"col"`
}

func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// Redirect is a redirection of an invocation.
type Redirect struct {
	Op     string `json:"op"`
	Target Word   `json:"target"`
}

// Invocation is one command that would run.
type Invocation struct {
	Args []Word `json:"args"`
	// Name is the basename of the first argument (the program), "" when it is not static.
	Name string `json:"name"`
	// Wrappers lists, outermost first, what the command was found inside: "sudo", "env",
	// "bash -c", "eval", "xargs", "find -exec", "python3 -c", ...
	Wrappers []string `json:"wrappers,omitempty"`
	Pos      Pos      `json:"pos"`
	Depth    int      `json:"depth"`
	// Cwd is the working directory the command runs in; "" when it is not known (a cd to a
	// dynamic folder, or no working directory given).
	Cwd       string     `json:"cwd,omitempty"`
	Redirects []Redirect `json:"redirects,omitempty"`
	// Filtered is set on deletes synthesized from find: they remove only what find selects.
	Filtered bool `json:"filtered,omitempty"`
	// Function is set when the name is a function defined in the same command line.
	Function bool `json:"function,omitempty"`
	// Code holds the program text an interpreter runs, inline (-c, -e) or fed on stdin, when
	// it is known.
	Code []string `json:"code,omitempty"`
	// Followed is set when the program is a script whose text was read and judged in its
	// place (bash x.sh, ./x.sh, source x.sh): its effect is what its commands do.
	Followed bool `json:"followed,omitempty"`
	// Stdin says what feeds the command's standard input when the command line does: "pipe"
	// (an earlier stage of a pipeline), "heredoc", "here-string" or "file" (< FILE); "" when it
	// is the terminal the command line was started with.
	Stdin string `json:"stdin,omitempty"`
	// ReadsOnly is set when the program only reads or tests its operands: a PowerShell or
	// cmd.exe command that winshell knows writes nothing (Get-Content, Test-Path, type).
	ReadsOnly bool `json:"reads_only,omitempty"`
	// PipedFrom lists, by their index in Script.Invocations, the commands whose output the
	// command reads through a pipe (Stdin "pipe"): those of the pipeline's previous stage that
	// print into it, not the ones inside that stage's command substitutions (taint.go).
	PipedFrom []int `json:"piped_from,omitempty"`
}

// Under reports whether the invocation was found inside wrapper w (by its first word).
func (inv *Invocation) Under(w string) bool {
	for _, x := range inv.Wrappers {
		if x == w || strings.HasPrefix(x, w+" ") {
			return true
		}
	}
	return false
}

// Finding kinds the analysis reports for structures that are dangerous or opaque in themselves.
const (
	FindingParse            = "parse-error"        // the command does not parse
	FindingTooDeep          = "too-deep"           // nesting, length or size past the limits
	FindingPipeToShell      = "pipe-to-shell"      // a download piped into a shell or interpreter
	FindingShellStdin       = "shell-stdin"        // a shell reads a script that cannot be seen
	FindingDynamicScript    = "dynamic-script"     // bash -c / eval of a string that is not static
	FindingDynamicName      = "dynamic-command"    // a command whose name is not static
	FindingForkBomb         = "fork-bomb"          // a function that calls itself in the background or a pipe
	FindingDeviceWrite      = "device-write"       // a write onto a disk device node
	FindingCodeDelete       = "interpreter-delete" // inline interpreter code deleting a root, home or .git
	FindingGuardEnv         = "agenthooks-env"     // sets a variable that changes what agenthooks does
	FindingCodeDynamic      = "code-dynamic"       // interpreter code runs a command or code built at run time
	FindingKillAll          = "kill-all"           // kills every process (of a user)
	FindingTerraformDestroy = "terraform-destroy"  // an apply that destroys: a -destroy plan, TF_CLI_ARGS
	// FindingUnseenScript (in scripts.go): a script the command runs that cannot be read.
)

// IsGuardVariable reports whether setting the variable name changes what agenthooks does: every
// AGENTHOOKS_ variable (which policy, which audit trail, whether a run records).
func IsGuardVariable(name string) bool { return strings.HasPrefix(name, "AGENTHOOKS_") }

// Finding is a structural observation, with the invocation it concerns when there is one.
type Finding struct {
	Kind       string `json:"kind"`
	Message    string `json:"message"`
	Pos        Pos    `json:"pos"`
	Invocation int    `json:"invocation"` // index into Script.Invocations, -1 for none
}

// Script is the result of analysing one command.
type Script struct {
	Invocations []Invocation `json:"invocations"`
	Findings    []Finding    `json:"findings,omitempty"`
	// Masked holds the command and every nested script with quoted text, comments and heredoc
	// bodies blanked, for regex rules that must not fire on data.
	Masked []string `json:"-"`
	// Work is what the analysis cost, in units of the work budget (Options.Budget).
	Work int `json:"work,omitempty"`
}

// Analyze reads command and returns every invocation that would run. It never fails: what it
// cannot read becomes a Finding.
func Analyze(command string, opts Options) *Script {
	if opts.MaxDepth <= 0 {
		opts.MaxDepth = DefaultMaxDepth
	}
	if opts.MaxLen <= 0 {
		opts.MaxLen = DefaultMaxLen
	}
	if opts.MaxInvocations <= 0 {
		opts.MaxInvocations = DefaultMaxInvocations
	}
	if opts.Budget <= 0 {
		opts.Budget = DefaultBudget
	}
	a := &analyzer{opts: opts, script: &Script{}, vars: map[string]string{}, funcs: map[string]bool{}, cwd: opts.Cwd, left: opts.Budget}
	if len(command) > opts.MaxLen {
		a.find(FindingTooDeep, Pos{1, 1}, -1, fmt.Sprintf("command is %d bytes, more than the %d the guard reads", len(command), opts.MaxLen))
		return a.script
	}
	a.parser = parsers.Get().(*syntax.Parser)
	defer parsers.Put(a.parser)
	a.script_(command, nil, 0, Pos{})
	a.script.Work = opts.Budget - max(a.left, 0)
	return a.script
}

type analyzer struct {
	opts   Options
	script *Script
	vars   map[string]string // known variables: value may contain Dyn
	// arrays are the indexed arrays the command line assigned with known elements.
	arrays map[string][]string
	funcs  map[string]bool
	cwd    string
	src    string // the script being parsed now
	parser *syntax.Parser
	cfg    *expand.Config
	// written holds what the command line itself wrote into files, by absolute path, when
	// it is known (cat > x.sh <<EOF): a script written and run in one command is read too.
	written map[string]string
	// gitAliases are the aliases git config set earlier in the same command line.
	gitAliases map[string]Word
	// links are the symbolic links the command line made, by absolute path, to their targets.
	links map[string]string
	// placed are the files cp, install, ln and mv put in place, by absolute path, with the
	// program copied there ("" when not known): a command name they shadow in PATH runs it.
	placed map[string]string
	// moved are the places mv moved something to, by absolute path, with where it came from.
	moved map[string]string
	// globVals are the values a for loop gave its variable from a glob: each is a pattern.
	globVals map[string]bool
	// substDepth bounds command substitutions computed inside each other.
	substDepth int
	// params are the positional parameters ($1, "$@") where they are known: the arguments of
	// bash -c SCRIPT ARG0 ARGS... and of a function call.
	params []string
	// funcBodies are the functions the command line defines, to follow a call with its
	// arguments; callDepth bounds calls inside calls.
	funcBodies map[string]*syntax.Stmt
	callDepth  int
	// aliases are the aliases the command line defines.
	aliases map[string]string
	// pkgScripts are the package.json scripts npm pkg set wrote earlier in the command line.
	pkgScripts map[string]string
	// pkgJSON is the package.json text packageScript decoded last, and its scripts: npm ci &&
	// npm run build reads the same file twice.
	pkgJSON struct {
		text    string
		scripts map[string]string
	}
	// destroyPlans are the plan files terraform plan -destroy wrote earlier in the command line.
	destroyPlans map[string]bool
	// substFiles are the files that stand for process substitutions whose text is known.
	substFiles map[*syntax.ProcSubst]string
	// left is the work budget left (budget.go); spent is set once it has run out, short once
	// the analysis has left something unread; at is the position of the statement being
	// walked, where the budget ran out.
	left         int
	spent, short bool
	at           Pos
	// copies are what variables assigned from other expansions carry (taint.go).
	copies map[string][]string
	// sqlFiles counts the bytes of SQL files read for the database command being judged, which
	// workspaceFile charged as it read them.
	sqlFiles int
}

var parsers = sync.Pool{New: func() any {
	return syntax.NewParser(syntax.Variant(syntax.LangBash), syntax.KeepComments(true))
}}

// frame is where the analysis is: the wrappers around it, its depth and, for nested scripts,
// the position in the top-level command of what contains it.
type frame struct {
	wrappers []string
	depth    int
	anchor   Pos // zero at depth 0
	src      string
	// env lists how the environment of what runs in this frame was changed on its way here, for
	// an agent's program started in it (agentEnvOf): the variables that move every home set for
	// it (HOME=/tmp/x timeout 9 claude), and "env -i" for an environment cleared.
	env []string
}

func (a *analyzer) find(kind string, pos Pos, inv int, msg string) {
	a.left -= costFinding // the analysis goes on: the budget is checked at its next step
	a.script.Findings = append(a.script.Findings, Finding{Kind: kind, Message: msg, Pos: pos, Invocation: inv})
}

func (f *frame) pos(p syntax.Pos) Pos {
	if f.depth > 0 && f.anchor.Line > 0 {
		return f.anchor
	}
	return Pos{Line: int(p.Line()), Col: int(p.Col())}
}

func (f *frame) with(wrapper string) *frame {
	if n := len(f.wrappers); n > 0 && f.wrappers[n-1] == wrapper {
		// sudo sudo rm: inside sudo once is inside sudo
		return &frame{wrappers: f.wrappers, depth: f.depth, anchor: f.anchor, src: f.src, env: f.env}
	}
	w := make([]string, len(f.wrappers), len(f.wrappers)+1)
	copy(w, f.wrappers)
	return &frame{wrappers: append(w, wrapper), depth: f.depth, anchor: f.anchor, src: f.src, env: f.env}
}

// withEnv is f for a command whose environment changes lists (frame.env) also changed.
func (f *frame) withEnv(changes []string) *frame {
	if len(changes) == 0 {
		return f
	}
	g := *f
	g.env = append(slices.Clip(f.env), changes...)
	return &g
}

// script_ parses src and analyses it as a script running inside parent (nil at the top).
func (a *analyzer) script_(src string, parent *frame, depth int, anchor Pos) {
	f := &frame{depth: depth, anchor: anchor, src: src}
	if parent != nil {
		f.wrappers, f.env = parent.wrappers, parent.env // a nested shell inherits the environment
	}
	if depth > a.opts.MaxDepth {
		a.find(FindingTooDeep, f.pos(syntax.Pos{}), -1, fmt.Sprintf("shells nested more than %d deep", a.opts.MaxDepth))
		return
	}
	file, read, err := a.parse(src)
	switch err {
	case errBudget:
		return // not read: the finding that the budget ran out says so
	case errNesting:
		a.find(FindingTooDeep, f.pos(syntax.Pos{}), -1, fmt.Sprintf("brackets or blocks nested more than %d deep", MaxNesting))
		a.script.Masked = append(a.script.Masked, read)
		return
	}
	if err != nil {
		p := Pos{1, 1}
		if pe, ok := err.(syntax.ParseError); ok {
			p = Pos{int(pe.Pos.Line()), int(pe.Pos.Col())}
		}
		if depth > 0 {
			p = f.pos(syntax.Pos{})
		}
		a.find(FindingParse, p, -1, "does not parse as bash: "+err.Error())
		a.script.Masked = append(a.script.Masked, src)
		return
	}
	a.script.Masked = append(a.script.Masked, mask(read, file))
	outer := a.src
	a.src = src
	a.stmts(file.Stmts, f)
	a.src = outer
}

// nesting is an upper bound of how deep src nests, counted before parsing: opening brackets
// and braces, and the keywords that open a block, less what closes them. Keywords in heredoc
// bodies are not counted (a Python file or prose written with cat <<EOF holds many an "if" and
// "while" and no "fi"); brackets are, everywhere: quotes are not followed, so brackets in
// strings count too. A "<<" in quotes can make it skip keywords the parser reads: the work
// budget charges those (parseCost), so they cost a few milliseconds at most.
func nesting(src string) int {
	depth, peak := 0, 0
	word := 0         // start of the current word
	var docs []string // heredoc delimiters whose bodies start at the next newline
	body := -1        // the end of the heredoc body being read, -1 outside one
	for i := 0; i <= len(src); i++ {
		var c byte
		if i < len(src) {
			c = src[i]
		}
		if i == body {
			body = -1
		}
		if (i == len(src) || c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '&' || c == '|') && body < 0 {
			switch src[word:i] {
			case "if", "case", "while", "until", "for", "select":
				depth++
			case "fi", "esac", "done":
				depth--
			}
		}
		if i == len(src) || c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '&' || c == '|' {
			word = i + 1
		}
		switch c {
		case '(', '{', '[':
			depth++
			word = i + 1
		case ')', '}', ']':
			depth--
			word = i + 1
		case '<':
			if d, ok := heredocDelim(src, i); ok && body < 0 {
				docs = append(docs, d)
			}
		case '\n':
			if body < 0 && len(docs) > 0 {
				end := i + 1
				for _, d := range docs {
					end = skipHeredoc(src, end, d)
				}
				body = end // the bodies' keywords are text; their brackets still count
				docs = docs[:0]
			}
		}
		peak = max(peak, depth)
	}
	return peak
}

// heredocDelim reads the delimiter of a heredoc operator at src[i] ("<<" or "<<-", not "<<<").
func heredocDelim(src string, i int) (string, bool) {
	if !strings.HasPrefix(src[i:], "<<") || strings.HasPrefix(src[i:], "<<<") || i > 0 && src[i-1] == '<' {
		return "", false
	}
	j := i + 2
	if j < len(src) && src[j] == '-' {
		j++
	}
	for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
		j++
	}
	var d []byte
	for ; j < len(src) && !strings.ContainsRune(" \t\n;&|<>()", rune(src[j])); j++ {
		if c := src[j]; c != '\'' && c != '"' && c != '\\' {
			d = append(d, c)
		}
	}
	return string(d), len(d) > 0
}

// skipHeredoc returns the offset just past the line that ends a heredoc body starting at
// start: the line that is the delimiter (leading tabs allowed, as <<- strips them), or the end.
func skipHeredoc(src string, start int, delim string) int {
	for i := start; i < len(src); {
		end := strings.IndexByte(src[i:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += i
		}
		if strings.TrimLeft(src[i:end], "\t") == delim {
			return min(end+1, len(src))
		}
		i = end + 1
	}
	return len(src)
}

func (a *analyzer) stmts(list []*syntax.Stmt, f *frame) {
	for _, s := range list {
		a.stmt(s, f, nil)
	}
}

// stdinSource is what feeds a command's stdin in a pipeline: the previous stage.
type stdinSource struct {
	stmt *syntax.Stmt
	inv  []Word       // the previous stage's resolved argv, when it was a simple command
	prev *stdinSource // the stage before it, for text computed along a pipeline
	// printers are the invocations of the previous stage that print into the pipe
	// (Invocation.PipedFrom)
	printers []int
}

func (a *analyzer) stmt(s *syntax.Stmt, f *frame, stdin *stdinSource) {
	a.at = f.pos(s.Pos())
	if !a.spend(costStmt) {
		return
	}
	if len(a.script.Invocations) >= a.opts.MaxInvocations {
		if n := len(a.script.Findings); n == 0 || a.script.Findings[n-1].Kind != FindingTooDeep {
			a.find(FindingTooDeep, f.pos(s.Pos()), -1, fmt.Sprintf("more than %d commands", a.opts.MaxInvocations))
		}
		return
	}
	for _, r := range s.Redirs {
		a.nestedInWord(r.Word, f)
		if (r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc) && !quotedDelim(r.Word) {
			a.nestedInWord(r.Hdoc, f) // cat <<EOF runs the $(…) in its body first
		}
	}
	if _, call := s.Cmd.(*syntax.CallExpr); !call && s.Cmd != nil {
		defer a.inheritInput(s, len(a.script.Invocations))
	}
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		a.call(s, c, f, stdin)
	case *syntax.BinaryCmd:
		if c.Op == syntax.Pipe || c.Op == syntax.PipeAll {
			a.pipeline(c, f)
			return
		}
		a.stmt(c.X, f, nil)
		a.stmt(c.Y, f, nil)
	case *syntax.Subshell:
		a.scoped(func() { a.stmts(c.Stmts, f) })
	case *syntax.Block:
		a.stmts(c.Stmts, f)
	case *syntax.IfClause:
		for cl := c; cl != nil; cl = cl.Else {
			a.stmts(cl.Cond, f)
			a.stmts(cl.Then, f)
		}
	case *syntax.WhileClause:
		if endless(c.Cond, c.Until) && spawnsUnpaced(c.Do) {
			a.find(FindingForkBomb, f.pos(c.Pos()), -1, "fork bomb: an endless loop starts a process in the background each time round, without waiting")
		}
		a.stmts(c.Cond, f)
		a.stmts(c.Do, f)
	case *syntax.ForClause:
		if l, ok := c.Loop.(*syntax.CStyleLoop); ok && l.Cond == nil && spawnsUnpaced(c.Do) {
			a.find(FindingForkBomb, f.pos(c.Pos()), -1, "fork bomb: an endless loop starts a process in the background each time round, without waiting")
		}
		a.forClause(c, f)
	case *syntax.CaseClause:
		a.nestedInWord(c.Word, f)
		for _, item := range c.Items {
			a.stmts(item.Stmts, f)
		}
	case *syntax.FuncDecl:
		a.funcDecl(c, f)
	case *syntax.DeclClause:
		nameref := false
		for _, as := range c.Args {
			if as.Naked && as.Name == nil && as.Value != nil {
				if opt := as.Value.Lit(); strings.HasPrefix(opt, "-") && strings.Contains(opt, "n") {
					nameref = true // declare -n r=HOME: r names HOME
				} else if w := a.literal(as.Value); !strings.HasPrefix(w.Value, "-") {
					// export "$v=..." sets the variable v names
					name, _, _ := strings.Cut(w.Value, "=")
					if !w.Static && !strings.Contains(name, Dyn) || w.Static {
						a.guardVariable(name, f.pos(as.Pos()))
					}
				}
				continue
			}
			a.assign(as, f)
			if nameref && as.Name != nil && as.Value != nil {
				if target := as.Value.Lit(); target != "" {
					a.vars[as.Name.Value] = env{a}.Get(target).Str
					// declare -n r=CLAUDE_CONFIG_DIR: r=… sets the variable it names
					a.guardVariable(target, f.pos(as.Pos()))
				}
			}
		}
	case *syntax.TimeClause:
		if c.Stmt != nil {
			a.stmt(c.Stmt, f.with("time"), stdin)
		}
	case *syntax.CoprocClause:
		if c.Stmt != nil {
			a.stmt(c.Stmt, f.with("coproc"), nil)
		}
	case *syntax.ArithmCmd, *syntax.TestClause, *syntax.LetClause:
		syntax.Walk(c, func(n syntax.Node) bool { return a.nestedNode(n, f) })
	case nil:
		// a statement of redirections only (> FILE truncates FILE) is : > FILE
		if len(s.Redirs) > 0 {
			ctx := &callCtx{stmt: s, stdin: stdin, pos: f.pos(s.Pos())}
			for _, r := range s.Redirs {
				if r.Word == nil || r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc {
					continue
				}
				ctx.redirs = append(ctx.redirs, Redirect{Op: r.Op.String(), Target: a.literal(r.Word)})
			}
			a.record([]Word{{Value: ":", Static: true, Raw: ":"}}, ":", f, ctx)
		}
	}
	a.redirects(s, f)
}

// scoped runs fn in a subshell: variables and the working directory it changes are restored.
func (a *analyzer) scoped(fn func()) {
	if !a.spend(costScope * (len(a.vars) + len(a.arrays))) {
		return
	}
	vars := make(map[string]string, len(a.vars))
	for k, v := range a.vars {
		vars[k] = v
	}
	arrays := make(map[string][]string, len(a.arrays))
	for k, v := range a.arrays {
		arrays[k] = v
	}
	cwd := a.cwd
	fn()
	a.vars, a.arrays, a.cwd = vars, arrays, cwd
}

// pipeline analyses each stage in its own scope, telling every stage what feeds its stdin.
func (a *analyzer) pipeline(c *syntax.BinaryCmd, f *frame) {
	var stages []*syntax.Stmt
	var flatten func(s *syntax.Stmt)
	flatten = func(s *syntax.Stmt) {
		if b, ok := s.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) && len(s.Redirs) == 0 {
			flatten(b.X)
			flatten(b.Y)
			return
		}
		stages = append(stages, s)
	}
	flatten(c.X)
	flatten(c.Y)
	var prev *stdinSource
	for _, s := range stages {
		src := prev
		from := len(a.script.Invocations)
		a.scoped(func() { a.stmt(s, f, src) })
		prev = &stdinSource{stmt: s, prev: src, printers: a.printers(from, f)}
		if call, ok := s.Cmd.(*syntax.CallExpr); ok {
			prev.inv = a.fields(call.Args)
		}
	}
}

func (a *analyzer) forClause(c *syntax.ForClause, f *frame) {
	switch loop := c.Loop.(type) {
	case *syntax.WordIter:
		for _, w := range loop.Items {
			a.nestedInWord(w, f)
		}
		items := a.fields(loop.Items)
		if len(items) == 0 || len(items) > 16 || !loop.InPos.IsValid() {
			a.vars[loop.Name.Value] = Dyn
			raws := make([]string, len(loop.Items))
			for i, w := range loop.Items {
				raws[i] = a.source(w)
			}
			a.copyInto(loop.Name.Value, raws...)
			a.stmts(c.Do, f)
			return
		}
		// Each value the loop variable takes is followed through the body. A glob stands for
		// each name it matches: "$f" in the body is a pattern too (for f in src/*; do : > "$f").
		for _, it := range items {
			a.vars[loop.Name.Value] = it.Value
			a.copyInto(loop.Name.Value, it.Raw)
			if it.Glob && it.Static {
				if a.globVals == nil {
					a.globVals = map[string]bool{}
				}
				a.globVals[it.Value] = true
			}
			a.stmts(c.Do, f)
		}
	case *syntax.CStyleLoop:
		syntax.Walk(loop, func(n syntax.Node) bool { return a.nestedNode(n, f) })
		a.stmts(c.Do, f)
	}
}

func (a *analyzer) funcDecl(c *syntax.FuncDecl, f *frame) {
	if c.Name != nil {
		a.funcs[c.Name.Value] = true
		if callsItself(c) {
			a.find(FindingForkBomb, f.pos(c.Pos()), -1, "fork bomb: function "+c.Name.Value+" runs itself in the background or a pipe")
		}
	}
	if c.Body != nil {
		if c.Name != nil {
			if a.funcBodies == nil {
				a.funcBodies = map[string]*syntax.Stmt{}
			}
			a.funcBodies[c.Name.Value] = c.Body
		}
		a.scoped(func() { a.stmt(c.Body, f.with("function "+funcName(c)), nil) })
	}
}

func funcName(c *syntax.FuncDecl) string {
	if c.Name != nil {
		return c.Name.Value
	}
	return "(anonymous)"
}

// callsItself reports whether a function body runs the function itself in a pipeline or in the
// background: the shape of a fork bomb.
func callsItself(fn *syntax.FuncDecl) bool {
	if fn.Name == nil || fn.Body == nil {
		return false
	}
	name, found := fn.Name.Value, false
	syntax.Walk(fn.Body, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Stmt:
			if n.Background && isCallTo(n, name) {
				found = true
			}
		case *syntax.BinaryCmd:
			if (n.Op == syntax.Pipe || n.Op == syntax.PipeAll) && (isCallTo(n.X, name) || isCallTo(n.Y, name)) {
				found = true
			}
		}
		return !found
	})
	return found
}

// endless reports whether a while (or until) condition never ends the loop: true, :, [ 1 ],
// (( 1 )) (false for until).
func endless(cond []*syntax.Stmt, until bool) bool {
	if len(cond) != 1 || cond[0].Negated {
		return false
	}
	switch c := cond[0].Cmd.(type) {
	case *syntax.CallExpr:
		if len(c.Assigns) > 0 || len(c.Args) == 0 {
			return false
		}
		name := c.Args[0].Lit()
		if until {
			return name == "false" && len(c.Args) == 1
		}
		return (name == "true" || name == ":") && len(c.Args) == 1 || name == "[" && len(c.Args) == 3 && c.Args[1].Lit() == "1"
	case *syntax.ArithmCmd:
		w, ok := c.X.(*syntax.Word)
		return ok && !until && w.Lit() != "" && strings.Trim(w.Lit(), "0123456789") == "" && strings.Trim(w.Lit(), "0") != ""
	}
	return false
}

// spawnsUnpaced reports whether a loop body starts a command in the background and has nothing
// that ends the loop or waits between rounds (break, exit, return, wait, sleep, read): each
// round adds a process, as fast as the machine can fork.
func spawnsUnpaced(body []*syntax.Stmt) bool {
	background, paced := false, false
	for _, st := range body {
		syntax.Walk(st, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.Stmt:
				background = background || n.Background || n.Coprocess
			case *syntax.CallExpr:
				if len(n.Args) > 0 {
					switch path.Base(n.Args[0].Lit()) {
					case "break", "exit", "return", "wait", "sleep", "read", "usleep", "inotifywait", "timeout":
						paced = true
					}
				}
			}
			return !paced
		})
	}
	return background && !paced
}

func isCallTo(s *syntax.Stmt, name string) bool {
	c, ok := s.Cmd.(*syntax.CallExpr)
	return ok && len(c.Args) > 0 && c.Args[0].Lit() == name
}

// nestedInWord analyses the command substitutions and process substitutions inside a word.
func (a *analyzer) nestedInWord(w *syntax.Word, f *frame) {
	if w == nil || quotedOrLiteral(w) {
		return
	}
	syntax.Walk(w, func(n syntax.Node) bool { return a.nestedNode(n, f) })
}

// quotedOrLiteral reports whether a word is only literal text and single quotes, which hold no
// command to walk into (most words of a command line).
func quotedOrLiteral(w *syntax.Word) bool {
	for _, p := range w.Parts {
		switch p.(type) {
		case *syntax.Lit, *syntax.SglQuoted:
		default:
			return false
		}
	}
	return true
}

func (a *analyzer) nestedNode(n syntax.Node, f *frame) bool {
	switch n := n.(type) {
	case *syntax.CmdSubst:
		a.scoped(func() { a.stmts(n.Stmts, f.with("$(…)")) })
		return false
	case *syntax.ProcSubst:
		a.scoped(func() { a.stmts(n.Stmts, f.with("<(…)")) })
		return false
	}
	return true
}

func (a *analyzer) assign(as *syntax.Assign, f *frame) {
	if as == nil || as.Name == nil {
		return
	}
	a.guardVariable(as.Name.Value, f.pos(as.Pos()))
	if as.Value != nil {
		a.terraformVariable(as.Name.Value, a.literal(as.Value).Value, f.pos(as.Pos()))
	}
	if as.Value != nil && (gitCommandEnv.has(as.Name.Value) || as.Name.Value == "BASH_ENV" || as.Name.Value == "ENV") {
		a.commandVariable(as.Name.Value, a.literal(as.Value), f, &callCtx{pos: f.pos(as.Pos())})
	}
	if as.Value != nil {
		a.nestedInWord(as.Value, f)
	}
	if as.Array != nil && as.Index == nil {
		a.assignArray(as)
		return
	}
	delete(a.arrays, as.Name.Value)
	if as.Array != nil || as.Index != nil || as.Naked {
		a.vars[as.Name.Value] = Dyn
		return
	}
	if as.Value == nil {
		a.vars[as.Name.Value] = ""
		return
	}
	w := a.literal(as.Value)
	if as.Append {
		a.copyInto(as.Name.Value, append([]string{w.Raw}, a.copies[as.Name.Value]...)...)
	} else {
		a.copyInto(as.Name.Value, w.Raw)
	}
	if as.Append {
		w.Value = a.vars[as.Name.Value] + w.Value
	}
	a.vars[as.Name.Value] = w.Value
}

// guardVariable reports an assignment to a variable that changes what agenthooks does.
func (a *analyzer) guardVariable(name string, pos Pos) {
	if IsGuardVariable(name) {
		a.find(FindingGuardEnv, pos, -1, "sets "+name+", which changes what agenthooks does")
	}
	a.agentVariable(name, pos)
}

// terraformVariable reports TF_CLI_ARGS (or TF_CLI_ARGS_apply) set to add -destroy: every
// terraform apply after it destroys.
func (a *analyzer) terraformVariable(name, value string, pos Pos) {
	if strings.HasPrefix(name, "TF_CLI_ARGS") && strings.Contains(value, "-destroy") {
		a.find(FindingTerraformDestroy, pos, -1, name+" adds -destroy to terraform's commands")
	}
}

// inheritInput gives the commands of a compound command (a loop, a group, a subshell) recorded
// from index from on the file it reads on stdin: while read -r l; do curl …; done < .env reads .env
// in curl as surely as curl … < .env. A command's own input redirection stays its own.
func (a *analyzer) inheritInput(s *syntax.Stmt, from int) {
	var in []Redirect
	for _, r := range s.Redirs {
		if (r.Op == syntax.RdrIn || r.Op == syntax.RdrInOut) && r.Word != nil {
			in = append(in, Redirect{Op: r.Op.String(), Target: a.literal(r.Word)})
		}
	}
	if len(in) == 0 {
		return
	}
	for i := from; i < len(a.script.Invocations); i++ {
		inv := &a.script.Invocations[i]
		own := false
		for _, r := range inv.Redirects {
			if r.Op == syntax.RdrIn.String() || r.Op == syntax.RdrInOut.String() {
				own = true
				break
			}
		}
		if !own {
			inv.Redirects = append(slices.Clip(inv.Redirects), in...)
		}
	}
}

func (a *analyzer) redirects(s *syntax.Stmt, f *frame) {
	// Redirections are attached to the invocation by call; here only the ones of compound
	// commands are checked for device writes.
	if _, ok := s.Cmd.(*syntax.CallExpr); ok {
		return
	}
	for _, r := range s.Redirs {
		if isWriteOp(r.Op) && r.Word != nil {
			t := a.literal(r.Word)
			if IsDiskDevice(t.Value) {
				a.find(FindingDeviceWrite, f.pos(r.Pos()), -1, "redirection writes to disk device "+t.Value)
			}
		}
	}
}

func isWriteOp(op syntax.RedirOperator) bool {
	switch op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll, syntax.RdrClob, syntax.RdrInOut, syntax.RdrAllClob, syntax.AppAllClob:
		return true
	}
	return false
}

// IsDiskDevice reports whether p names a disk device node (a whole disk or a partition).
func IsDiskDevice(p string) bool {
	p = path.Clean(p)
	for _, prefix := range []string{"/dev/sd", "/dev/hd", "/dev/vd", "/dev/xvd", "/dev/nvme", "/dev/mmcblk", "/dev/disk", "/dev/mapper/", "/dev/dm-", "/dev/md", "/dev/loop", "/dev/rdisk", "/dev/sr", "/dev/nbd"} {
		if strings.HasPrefix(p, prefix) {
			return true
		}
	}
	return false
}
