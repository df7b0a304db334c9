package policy

import (
	_ "embed"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"

	"github.com/agenthooks/agenthooks/internal/docbound"
	"github.com/agenthooks/agenthooks/internal/regfile"
	"github.com/agenthooks/agenthooks/internal/srcpos"
)

// DefaultYAML is the embedded default policy.
//
//go:embed default.yaml
var DefaultYAML []byte

// MaxFileSize bounds a policy file.
const MaxFileSize = 1 << 20

// DefaultName names the embedded default policy in messages.
const DefaultName = "(embedded default policy)"

// Default returns the embedded default policy. It is built on first use from the tables that
// `go generate` writes from default.yaml (default_gen.go, see defaultpack.go): parsing the YAML
// costs milliseconds, and the guard starts for every command an agent runs.
// TestDefaultIsCurrent keeps the two the same.
//
//go:generate go run ./gen
func Default() *Policy { return defaultPolicy() }

var defaultPolicy = sync.OnceValue(defaultCompiled)

// DefaultFull is the embedded default policy with every section, parsed from default.yaml: the
// read, prompt and MCP guards use it (the shell guard's hot path uses Default).
var DefaultFull = sync.OnceValue(func() *Policy {
	p, problems := ParseDefaultYAML()
	if problems.HasErrors() {
		panic("the embedded default policy is invalid: " + problems.Err().Error()) // a build defect, caught by tests
	}
	return p
})

// ParseDefaultYAML compiles default.yaml itself; the generator and the tests use it.
func ParseDefaultYAML() (*Policy, srcpos.List) { return Parse(DefaultName, DefaultYAML) }

// Load reads and compiles a policy file. Only a regular file of at most MaxFileSize bytes is
// read: a FIFO, a device or a huge file is a problem at once, never a read that blocks.
func Load(path string) (*Policy, srcpos.List) {
	data, err := regfile.Read(path, MaxFileSize)
	if err != nil {
		var l srcpos.List
		l.Add(srcpos.Pos{File: path}, srcpos.Error, "read", "cannot read policy: "+err.Error())
		return nil, l
	}
	return Parse(path, data)
}

type rawFile struct {
	Schema  any        `yaml:"$schema"` // the file's JSON Schema, for editors; ignored
	Version any        `yaml:"version"`
	Shell   *rawShell  `yaml:"shell"`
	Read    *rawRead   `yaml:"read"`
	Prompt  *rawPrompt `yaml:"prompt"`
	MCP     *rawMCP    `yaml:"mcp"`

	Confine *rawConfine `yaml:"confine"` // compiled in confine.go
}

type rawRead struct {
	Deny         []any `yaml:"deny"`
	IfSecret     []any `yaml:"deny_if_secret"`
	Allow        []any `yaml:"allow"`
	ScanContent  *bool `yaml:"scan_content"`
	MaxBytes     any   `yaml:"max_bytes"`
	BudgetMillis any   `yaml:"budget_ms"`
}

type rawPrompt struct {
	Scan         *bool `yaml:"scan"`
	Attachments  *bool `yaml:"attachments"`
	MaxBytes     any   `yaml:"max_bytes"`
	BudgetMillis any   `yaml:"budget_ms"`
}

type rawMCP struct {
	Default string       `yaml:"default"`
	Rules   []rawMCPRule `yaml:"rules"`
}

type rawMCPRule struct {
	Server   any `yaml:"server"`
	Tool     any `yaml:"tool"`
	Decision any `yaml:"decision"`
	Message  any `yaml:"message"`
}

type rawShell struct {
	Unknown string    `yaml:"unknown"`
	Allow   []any     `yaml:"allow"`
	Packs   []any     `yaml:"packs"`
	Rules   []rawRule `yaml:"rules"`
}

type rawRule struct {
	ID         any   `yaml:"id"`
	Pack       any   `yaml:"pack"`
	Decision   any   `yaml:"decision"`
	Message    any   `yaml:"message"`
	Command    any   `yaml:"command"`
	Subcommand any   `yaml:"subcommand"`
	Flags      []any `yaml:"flags"`
	Args       []any `yaml:"args"`
	ArgsAny    []any `yaml:"args_any"`
	Targets    []any `yaml:"targets"`
	Dest       []any `yaml:"destination"`
	Unless     []any `yaml:"unless"`
	Under      []any `yaml:"under"`
	Except     []any `yaml:"except"`
	ArgPattern any   `yaml:"arg_pattern"`
	MaxArgs    any   `yaml:"max_args"`
	ArgsUnk    any   `yaml:"args_unknown"`
	StdinFed   any   `yaml:"stdin_fed"`
	Finding    any   `yaml:"finding"`
	Pattern    any   `yaml:"pattern"`
}

// compiler validates a decoded policy, collecting every problem with its position.
type compiler struct {
	name     string
	ast      *ast.File
	problems srcpos.List
}

func (c *compiler) pos(path string) srcpos.Pos {
	p := srcpos.Pos{File: c.name}
	if c.ast == nil {
		return p
	}
	yp, err := yaml.PathString(path)
	if err != nil {
		return p
	}
	node, err := yp.FilterFile(c.ast)
	if err != nil || node == nil || node.GetToken() == nil {
		if i := strings.LastIndex(path, "."); i > 1 && !strings.HasSuffix(path, "]") {
			return c.pos(path[:i]) // a missing key: point at its object
		}
		return p
	}
	if m, ok := node.(*ast.MappingNode); ok && len(m.Values) > 0 {
		node = m.Values[0].Key // an object: point at its first key
	}
	tp := node.GetToken().Position
	p.Line, p.Col, p.Offset = tp.Line, tp.Column, tp.Offset
	return p
}

func (c *compiler) errorf(path, code, format string, args ...any) {
	c.problems.Add(c.pos(path), srcpos.Error, code, fmt.Sprintf(format, args...))
}

// Parse compiles a policy from YAML. Problems carry file, line and column; the policy is nil
// when there is any error.
func Parse(name string, data []byte) (*Policy, srcpos.List) {
	c := &compiler{name: name}
	if len(data) > MaxFileSize {
		c.errorf("$", "read", "policy is %d bytes, more than the limit of %d", len(data), MaxFileSize)
		return nil, c.problems
	}
	// Bounded before the parser builds it: its memory is quadratic in depth.
	if err := docbound.CheckYAML(data); err != nil {
		c.errorf("$", "read", "policy refused before parsing: %v", err)
		return nil, c.problems
	}
	file, err := parseYAML(data)
	if err != nil {
		c.yamlError(err)
		return nil, c.problems
	}
	c.ast = file
	var raw rawFile
	if err := decodeYAML(data, &raw); err != nil {
		c.yamlError(err)
		return nil, c.problems
	}
	p := c.compile(&raw)
	if c.problems.HasErrors() {
		return nil, c.problems
	}
	return p, c.problems
}

// parseYAML and decodeYAML call the YAML library, turning a panic of the library on hostile
// input (one was found by fuzzing: a tagged scalar where a sequence is decoded) into an error:
// a policy file must never crash the guard.
func parseYAML(data []byte) (f *ast.File, err error) {
	defer recoverYAML(&err)
	return parser.ParseBytes(data, 0)
}

func decodeYAML(data []byte, v any) (err error) {
	defer recoverYAML(&err)
	return yaml.UnmarshalWithOptions(data, v, yaml.DisallowUnknownField())
}

func recoverYAML(err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("the YAML decoder failed on this file (%v); check its tags and structure", r)
	}
}

func (c *compiler) yamlError(err error) {
	var ye yaml.Error
	p := srcpos.Pos{File: c.name}
	msg := err.Error()
	if errors.As(err, &ye) {
		msg = ye.GetMessage()
		if tok := ye.GetToken(); tok != nil {
			p.Line, p.Col = tok.Position.Line, tok.Position.Column
		}
	}
	c.problems.Add(p, srcpos.Error, "syntax", msg)
}

func isOne(v any) bool {
	switch n := v.(type) {
	case uint64:
		return n == 1
	case int64:
		return n == 1
	case float64:
		return n == 1
	}
	return false
}

var ruleID = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`) })

func (c *compiler) compile(raw *rawFile) *Policy {
	p := &Policy{Name: c.name, Unknown: Allow}
	if !isOne(raw.Version) {
		c.errorf("$.version", "version", "policy version must be 1")
	}
	c.sections(p, raw)
	if raw.Shell == nil {
		return p
	}
	sh := raw.Shell
	switch {
	case sh.Unknown == "":
	case validDecision(sh.Unknown):
		p.Unknown = Decision(sh.Unknown)
	default:
		c.errorf("$.shell.unknown", "decision", "unknown must be allow, ask or deny, not %q", sh.Unknown)
	}
	for i, a := range sh.Allow {
		s, ok := a.(string)
		if !ok || strings.TrimSpace(s) == "" {
			c.errorf(fmt.Sprintf("$.shell.allow[%d]", i), "allow", "an allow entry must be a command name or prefix such as \"git status\"")
			continue
		}
		p.Allow = append(p.Allow, strings.Fields(s))
	}
	ids := map[string]bool{}
	for i := range sh.Rules {
		if r := c.rule(fmt.Sprintf("$.shell.rules[%d]", i), &sh.Rules[i]); r != nil {
			if ids[r.ID] {
				c.errorf(fmt.Sprintf("$.shell.rules[%d].id", i), "rule", "rule id %q is used twice", r.ID)
			}
			ids[r.ID] = true
			p.Rules = append(p.Rules, r)
		}
	}
	if sh.Packs != nil {
		known := map[string]bool{}
		for _, r := range p.Rules {
			known[r.Pack] = true
		}
		p.Packs = map[string]bool{}
		for i, v := range sh.Packs {
			name, ok := v.(string)
			if !ok || !known[name] || name == "" {
				c.errorf(fmt.Sprintf("$.shell.packs[%d]", i), "pack", "unknown pack %v; packs are: %s", v, strings.Join(PackNames(p.Rules), ", "))
				continue
			}
			p.Packs[name] = true
		}
	}
	return p
}

func (c *compiler) rule(at string, raw *rawRule) *Rule {
	r := &Rule{}
	before := len(c.problems)
	id, ok := raw.ID.(string)
	if !ok || !ruleID().MatchString(id) {
		c.errorf(at+".id", "rule", "a rule needs an id of letters, digits, '.', '_' and '-'")
	}
	r.ID = id
	if raw.Pack != nil {
		pack, ok := raw.Pack.(string)
		if !ok || !ruleID().MatchString(pack) {
			c.errorf(at+".pack", "rule", "a pack is a name of letters, digits, '.', '_' and '-'")
		}
		r.Pack = pack
	}
	switch d, _ := raw.Decision.(string); d {
	case "deny", "ask":
		r.Decision = Decision(d)
	default:
		c.errorf(at+".decision", "decision", "a rule's decision must be deny or ask")
	}
	if raw.Message != nil {
		if r.Message, ok = raw.Message.(string); !ok {
			c.errorf(at+".message", "rule", "message must be a string")
		}
	}
	if r.Message == "" {
		r.Message = id
	}
	r.Commands = c.strings(at+".command", raw.Command, "command")
	r.Findings = c.strings(at+".finding", raw.Finding, "finding")
	for _, f := range r.Findings {
		if !slices.Contains(FindingKinds, f) {
			c.errorf(at+".finding", "rule", "unknown finding %q; findings are: %s", f, strings.Join(FindingKinds, ", "))
		}
	}
	r.Pattern = c.regexp(at+".pattern", raw.Pattern)
	kinds := 0
	for _, set := range []bool{raw.Command != nil, raw.Finding != nil, raw.Pattern != nil} {
		if set {
			kinds++
		}
	}
	if kinds != 1 {
		c.errorf(at, "rule", "a rule needs exactly one of command, finding or pattern")
	}
	for _, s := range c.strings(at+".subcommand", raw.Subcommand, "subcommand") {
		r.Subcommands = append(r.Subcommands, strings.Fields(s))
	}
	for i, f := range raw.Flags {
		s, ok := f.(string)
		if !ok || s == "" {
			c.errorf(fmt.Sprintf("%s.flags[%d]", at, i), "rule", "a flag must be a string such as \"-r|-R|--recursive\"")
			continue
		}
		r.Flags = append(r.Flags, strings.Split(s, "|"))
	}
	r.Args = c.list(at+".args", raw.Args)
	r.ArgsAny = c.list(at+".args_any", raw.ArgsAny)
	r.Under = c.list(at+".under", raw.Under)
	for _, form := range c.list(at+".except", raw.Except) {
		r.Except = append(r.Except, strings.Fields(form))
	}
	r.Targets = c.list(at+".targets", raw.Targets)
	for i, t := range r.Targets {
		if !slices.Contains(TargetClasses, t) {
			c.errorf(fmt.Sprintf("%s.targets[%d]", at, i), "rule", "unknown target %q; targets are: %s", t, strings.Join(TargetClasses, ", "))
		}
	}
	r.Unless = c.list(at+".unless", raw.Unless)
	r.Destination = c.list(at+".destination", raw.Dest)
	for i, t := range r.Destination {
		if !slices.Contains(TargetClasses, t) {
			c.errorf(fmt.Sprintf("%s.destination[%d]", at, i), "rule", "unknown target %q; targets are: %s", t, strings.Join(TargetClasses, ", "))
		}
	}
	r.ArgPattern = c.regexp(at+".arg_pattern", raw.ArgPattern)
	switch n := raw.MaxArgs.(type) {
	case nil:
	case uint64:
		if n > 1000 {
			c.errorf(at+".max_args", "rule", "max_args must be a whole number from 0 to 1000")
		} else {
			r.MaxArgs = int(n) + 1
		}
	default:
		c.errorf(at+".max_args", "rule", "max_args must be a whole number from 0 to 1000")
	}
	switch b := raw.ArgsUnk.(type) {
	case nil:
	case bool:
		r.ArgsUnknown = b
	default:
		c.errorf(at+".args_unknown", "rule", "args_unknown must be true or false")
	}
	switch b := raw.StdinFed.(type) {
	case nil:
	case bool:
		r.StdinFed = b
	default:
		c.errorf(at+".stdin_fed", "rule", "stdin_fed must be true or false")
	}
	if len(r.Commands) == 0 && (len(r.Subcommands)+len(r.Flags)+len(r.Args)+len(r.ArgsAny)+len(r.Under)+len(r.Targets)+len(r.Destination)+len(r.Unless)+len(r.Except)+r.MaxArgs > 0 || r.ArgPattern != nil || r.ArgsUnknown || r.StdinFed) {
		c.errorf(at, "rule", "subcommand, flags, unless, except, args, args_any, targets, destination, under, arg_pattern, max_args and args_unknown apply only to command rules")
	}
	if len(c.problems) > before {
		return nil
	}
	return r
}

// strings reads a string or a list of strings.
func (c *compiler) strings(at string, v any, what string) []string {
	switch v := v.(type) {
	case nil:
		return nil
	case string:
		if v == "" {
			c.errorf(at, "rule", "%s must not be empty", what)
			return nil
		}
		return []string{v}
	case []any:
		return c.list(at, v)
	}
	c.errorf(at, "rule", "%s must be a string or a list of strings", what)
	return nil
}

func (c *compiler) list(at string, items []any) []string {
	var out []string
	for i, it := range items {
		switch s := it.(type) {
		case string:
			if s != "" {
				out = append(out, s)
				continue
			}
		case uint64, int64, float64:
			out = append(out, fmt.Sprint(s))
			continue
		}
		c.errorf(fmt.Sprintf("%s[%d]", at, i), "rule", "must be a non-empty string")
	}
	return out
}

func (c *compiler) regexp(at string, v any) *regexp.Regexp {
	if v == nil {
		return nil
	}
	s, ok := v.(string)
	if !ok || s == "" {
		c.errorf(at, "rule", "a pattern must be a non-empty string")
		return nil
	}
	re, err := regexp.Compile(s)
	if err != nil {
		c.errorf(at, "rule", "not a valid regular expression (RE2): %v", err)
		return nil
	}
	return re
}
