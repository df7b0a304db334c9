package winshell

import (
	"fmt"
	"strings"
)

// Limits of one reading.
const (
	DefaultMaxDepth    = 6         // nested shells: -Command, -EncodedCommand, cmd /c, iex, ...
	DefaultMaxLen      = 128 << 10 // bytes of the command
	DefaultMaxCommands = 2000      // commands one reading may produce
	// DefaultMaxWords bounds the commands and arguments of one reading together: no command an
	// agent sends comes near it, and past it a 64 KB text would cost milliseconds to judge.
	DefaultMaxWords = 4000
	// MaxNesting bounds how deep brackets nest in one script: ( { $( @( @{ and cmd's ( blocks.
	MaxNesting = 100
)

// Shells a Script is written for.
const (
	PowerShell = "powershell"
	Cmd        = "cmd"
)

// Finding kinds. They are the strings guard/shell uses for the same observations.
const (
	FindingParse        = "parse-error"     // the text does not parse (unterminated string, block, ...)
	FindingTooDeep      = "too-deep"        // nesting, length or size past the limits
	FindingDownloadExec = "pipe-to-shell"   // a download run as code: iwr ... | iex, iex (irm ...)
	FindingDynamic      = "dynamic-script"  // code run from text not known before it runs
	FindingDynamicName  = "dynamic-command" // a command whose name is not known before it runs
)

// Options are the facts the reading starts from.
type Options struct {
	// Home is the user's home folder, in any spelling (C:\Users\me or /home/me). What
	// $env:USERPROFILE, $HOME, ~ and %USERPROFILE% become. Empty: they become "~".
	Home string
	// SystemDrive is where %SystemDrive%, %SystemRoot% and %ProgramFiles% live. Empty: "C:".
	SystemDrive string
	// MaxDepth bounds nested shells, MaxLen the text's length, MaxCommands the commands one
	// reading may produce, MaxWords its commands and arguments together. Zero: the defaults.
	MaxDepth, MaxLen, MaxCommands, MaxWords int
}

// Pos is a place in the text given: 1-based line and column (in bytes). Positions of commands in
// a nested script are positions in that script's own text.
type Pos struct {
	Line int `json:"line"`
	Col  int `json:"col"`
}

func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// Arg is one argument of a command.
type Arg struct {
	// Value is the argument with quotes and escapes removed and known variables replaced.
	// For a parameter it is the parameter's canonical spelling ("-Recurse") when the command is
	// known, else as written.
	Value string `json:"value"`
	// Static is false when some part is known only when the command runs: a variable, a
	// subexpression, a splat.
	Static bool `json:"static"`
	// Param marks a PowerShell parameter name (-Name) or a cmd switch (/S).
	Param bool `json:"param,omitempty"`
	// Bound marks a value written glued to its parameter: -Recurse:$false, -Path:C:\x.
	Bound bool `json:"bound,omitempty"`
	// Comma marks an element of an array argument after the first: in "-ArgumentList a,b", b.
	Comma bool `json:"comma,omitempty"`
	// Raw is the argument as written (for cmd: after %VAR% expansion and ^ escapes, quotes
	// kept: what the program receives).
	Raw string `json:"raw,omitempty"`
}

// Redirect is an output or input redirection.
type Redirect struct {
	Op     string `json:"op"` // > >> 2> 2>> *> < 2>&1 ...
	Target Arg    `json:"target"`
}

// Writes reports whether the redirection writes a file (not a stream merge, not nul or $null).
func (r Redirect) Writes() bool {
	if strings.Contains(r.Op, "<") || strings.Contains(r.Op, "&") {
		return false
	}
	v := strings.ToLower(r.Target.Value)
	return !(r.Target.Static && (v == "" || v == "nul" || v == "nul:" || v == "$null" || v == "con"))
}

// Command is one command that would run.
type Command struct {
	// Name is canonical: PowerShell aliases resolved (rm → Remove-Item, iwr → Invoke-WebRequest),
	// known cmdlets in their documented case; a program given by path becomes its lower-case base
	// name without .exe/.cmd/.bat/.com (C:\Git\bin\git.exe → git); cmd's built-ins are lower
	// case, del/erase → del and rd/rmdir → rmdir. "" when the name is not static.
	Name string `json:"name"`
	// Raw is the name as written.
	Raw   string `json:"raw"`
	Shell string `json:"shell"` // PowerShell or Cmd: whose syntax the arguments follow
	Args  []Arg  `json:"args,omitempty"`
	// Redirects lists the command's redirections in order.
	Redirects []Redirect `json:"redirects,omitempty"`
	// Via says what ran it when that was not the shell itself directly: "start", "call",
	// "Start-Process", "&" (the call operator), "." (dot-source).
	Via string `json:"via,omitempty"`
	// Input is the command before this one in its pipeline, nil for the first.
	Input *Command `json:"-"`
	Pos   Pos      `json:"pos"`
}

// Argv is the command's name as written followed by its arguments' values.
func (c *Command) Argv() []string {
	out := make([]string, 0, len(c.Args)+1)
	out = append(out, c.Raw)
	for _, a := range c.Args {
		out = append(out, a.Value)
	}
	return out
}

// Finding is a structural observation.
type Finding struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
	Pos     Pos    `json:"pos"`
}

// Script is what one text holds.
type Script struct {
	Shell    string    `json:"shell"`
	Commands []Command `json:"commands,omitempty"`
	// Nested are the scripts inside this one: script blocks, subexpressions, parenthesised
	// pipelines, and the text handed to nested shells. Each has its own positions.
	Nested []Script `json:"nested,omitempty"`
	// Via says how a nested script is reached: "{}", "$()", "()", "-Command",
	// "-EncodedCommand", "Invoke-Expression", "cmd /c", "for /f", "Start-Process", ...
	Via string `json:"via,omitempty"`
	// At is where a nested script is in the script that holds it: the bracket that opens it,
	// or the command that hands it to a nested shell. Zero for the top script.
	At       Pos       `json:"at,omitempty"`
	Findings []Finding `json:"findings,omitempty"`
	// EnvSets are the environment variables PowerShell assignments set ($env:NAME = …), upper
	// case, in order; cmd's set and Set-Item Env:NAME are Commands.
	EnvSets []string `json:"env_sets,omitempty"`
}

// Walk calls fn for s and every script nested in it, depth first, outermost first.
func (s *Script) Walk(fn func(*Script)) {
	fn(s)
	for i := range s.Nested {
		s.Nested[i].Walk(fn)
	}
}

// AllCommands lists every command of s and of every nested script.
func (s *Script) AllCommands() []*Command {
	var out []*Command
	s.Walk(func(x *Script) {
		for i := range x.Commands {
			out = append(out, &x.Commands[i])
		}
	})
	return out
}

// AllEnvSets lists the environment variables assigned in s and in every nested script.
func (s *Script) AllEnvSets() []string {
	var out []string
	s.Walk(func(x *Script) { out = append(out, x.EnvSets...) })
	return out
}

// AllFindings lists the findings of s and of every nested script.
func (s *Script) AllFindings() []Finding {
	var out []Finding
	s.Walk(func(x *Script) { out = append(out, x.Findings...) })
	return out
}

// ParseError is a text the reader could not follow to its end. The Script returned beside it
// holds what was read before it.
type ParseError struct {
	Shell string
	Pos   Pos
	Text  string
}

func (e *ParseError) Error() string { return fmt.Sprintf("%s:%s: %s", e.Shell, e.Pos, e.Text) }

// ParsePowerShell reads a PowerShell script with the default options.
func ParsePowerShell(text string) (*Script, error) { return Options{}.ParsePowerShell(text) }

// ParseCmd reads a cmd.exe command line (or several lines) with the default options.
func ParseCmd(text string) (*Script, error) { return Options{}.ParseCmd(text) }

// ParsePowerShell reads a PowerShell script. On error the Script holds what was read and a
// FindingParse or FindingTooDeep; it is never nil.
func (o Options) ParsePowerShell(text string) (*Script, error) {
	r := o.reader()
	sc, err := r.topPS(text)
	return sc, err
}

// ParseCmd reads a cmd.exe command line. On error the Script holds what was read and a
// FindingParse or FindingTooDeep; it is never nil.
func (o Options) ParseCmd(text string) (*Script, error) {
	r := o.reader()
	return r.topCmd(text)
}

// ParseArgs reads the command line of a program that is a Windows shell, as bash hands it over
// (argv[0] is the program): powershell, powershell.exe, pwsh, pwsh.exe (-Command, -c,
// -EncodedCommand, -File, and the bare command text powershell.exe takes), cmd, cmd.exe (/c, /k,
// /r). It returns nil, nil when argv[0] is none of them.
func (o Options) ParseArgs(argv []string) (*Script, error) {
	if len(argv) == 0 {
		return nil, nil
	}
	r := o.reader()
	var sc *Script
	switch shellOf(argv[0]) {
	case PowerShell:
		sc = &Script{Shell: PowerShell}
		r.psArgs(sc, argv[0], staticArgs(argv[1:]), Pos{1, 1}, 1)
	case Cmd:
		sc = &Script{Shell: Cmd}
		line, _ := joinArgs(staticArgs(argv[1:]), false)
		if len(argv) == 3 && (strings.EqualFold(argv[1], "/c") || strings.EqualFold(argv[1], "/k")) {
			line = argv[1] + " " + argv[2] // one argument after /c: the command line as given
		}
		r.cmdLine(sc, line, Pos{1, 1}, 1)
	default:
		return nil, nil
	}
	// The program itself is the first command: its effects (none) and its name are visible.
	top := Command{Name: canonName(argv[0], sc.Shell), Raw: argv[0], Shell: sc.Shell, Args: staticArgs(argv[1:]), Pos: Pos{1, 1}}
	sc.Commands = append([]Command{top}, sc.Commands...)
	return sc, r.firstErr
}

// shellOf says whether program (a name or path) is PowerShell or cmd.exe.
func shellOf(program string) string {
	switch baseName(program) {
	case "powershell", "pwsh", "powershell_ise":
		return PowerShell
	case "cmd":
		return Cmd
	}
	return ""
}

func staticArgs(vs []string) []Arg {
	out := make([]Arg, len(vs))
	for i, v := range vs {
		out[i] = Arg{Value: v, Static: true, Raw: v}
	}
	return out
}

// reader holds the limits and the work budget shared by a text and everything nested in it.
type reader struct {
	home, drive           string
	maxDepth, maxCommands int
	maxLen, maxWords      int
	commands, words       int
	work                  int // bytes read, across nested texts
	firstErr              error
	tooDeep               bool
}

func (o Options) reader() *reader {
	r := &reader{home: o.Home, drive: o.SystemDrive, maxDepth: o.MaxDepth, maxLen: o.MaxLen, maxCommands: o.MaxCommands, maxWords: o.MaxWords}
	if r.maxWords <= 0 {
		r.maxWords = DefaultMaxWords
	}
	if r.home == "" {
		r.home = "~"
	}
	if r.drive == "" {
		r.drive = "C:"
	}
	if r.maxDepth <= 0 {
		r.maxDepth = DefaultMaxDepth
	}
	if r.maxLen <= 0 {
		r.maxLen = DefaultMaxLen
	}
	if r.maxCommands <= 0 {
		r.maxCommands = DefaultMaxCommands
	}
	return r
}

// fail records the first error of the reading and the finding that goes with it.
func (r *reader) fail(sc *Script, kind string, pos Pos, shell, msg string) {
	sc.Findings = append(sc.Findings, Finding{Kind: kind, Message: msg, Pos: pos})
	if r.firstErr == nil {
		r.firstErr = &ParseError{Shell: shell, Pos: pos, Text: msg}
	}
}

// find records a finding that is an observation, not a failure to read.
func (r *reader) find(sc *Script, kind string, pos Pos, msg string) {
	sc.Findings = append(sc.Findings, Finding{Kind: kind, Message: msg, Pos: pos})
}

// budgetOK charges n bytes of reading and reports whether the reading may go on.
func (r *reader) budgetOK(n int) bool {
	r.work += n
	return r.work <= 8*r.maxLen
}

func (r *reader) topPS(text string) (*Script, error) {
	sc := &Script{Shell: PowerShell}
	if len(text) > r.maxLen {
		r.fail(sc, FindingTooDeep, Pos{1, 1}, PowerShell, fmt.Sprintf("command is %d bytes, more than the %d the guard reads", len(text), r.maxLen))
		return sc, r.firstErr
	}
	r.parsePS(sc, text, 0)
	return sc, r.firstErr
}

func (r *reader) topCmd(text string) (*Script, error) {
	sc := &Script{Shell: Cmd}
	if len(text) > r.maxLen {
		r.fail(sc, FindingTooDeep, Pos{1, 1}, Cmd, fmt.Sprintf("command is %d bytes, more than the %d the guard reads", len(text), r.maxLen))
		return sc, r.firstErr
	}
	r.parseCmd(sc, text, 0)
	return sc, r.firstErr
}

// wordsOK reports whether a command may take n more words, recording TooDeep when not.
func (r *reader) wordsOK(sc *Script, n int, pos Pos) bool {
	if r.words+n <= r.maxWords {
		return true
	}
	if !r.tooDeep {
		r.tooDeep = true
		r.fail(sc, FindingTooDeep, pos, sc.Shell, fmt.Sprintf("more than %d commands or %d words", r.maxCommands, r.maxWords))
	}
	return false
}

// nestedOK checks the depth of a nested shell about to be read, recording TooDeep when it is past
// the limit.
func (r *reader) nestedOK(sc *Script, depth int, pos Pos) bool {
	if depth > r.maxDepth {
		if !r.tooDeep {
			r.tooDeep = true
			r.fail(sc, FindingTooDeep, pos, sc.Shell, fmt.Sprintf("shells nested more than %d deep", r.maxDepth))
		}
		return false
	}
	return true
}

// addCommand appends c to sc unless the reading produced too many commands.
func (r *reader) addCommand(sc *Script, c Command) bool {
	r.commands++
	r.words += 1 + len(c.Args)
	if r.commands > r.maxCommands || r.words > r.maxWords {
		if !r.tooDeep {
			r.tooDeep = true
			r.fail(sc, FindingTooDeep, c.Pos, sc.Shell, fmt.Sprintf("more than %d commands or %d words", r.maxCommands, r.maxWords))
		}
		return false
	}
	sc.Commands = append(sc.Commands, c)
	return true
}

// lines maps byte offsets of one text to positions.
type lines []int // offsets where each line starts

func newLines(text string) lines {
	ls := lines{0}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			ls = append(ls, i+1)
		}
	}
	return ls
}

func (ls lines) pos(off int) Pos {
	lo, hi := 0, len(ls)
	for lo+1 < hi {
		m := (lo + hi) / 2
		if ls[m] <= off {
			lo = m
		} else {
			hi = m
		}
	}
	return Pos{Line: lo + 1, Col: off - ls[lo] + 1}
}
