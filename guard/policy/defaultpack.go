package policy

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// The embedded default policy is stored as tables rather than as a literal of Policy and Rule
// values. The Go runtime computes the pointer mask of .data at every start of every guard
// process (runtime.progToPointerMask, from schedinit): for a small symbol the linker's GC
// program spells out every pointer bit, ~7 instructions a word, while for an array it says
// "repeat", next to nothing. The literal was ~775 small symbols, ~80 KB: every rule and the
// backing array of every list. The tables are one array of every string (the lists' words
// first, list after list, then the other strings) and, without any pointer and so outside .data,
// small integers: which runs of the string array the groups' lists are, and per rule which
// strings it has and which runs are its lists and groups. unpack builds the Rules from them on
// first use; a list is a slice of the string array itself, nothing copied.
//
// Two other layouts were measured (docs/performance.md). Every string a substring of one
// constant, so that nothing at all is in .data: making the ~1,300 string headers at run time
// cost as much as their mask had. The rules one array of Rule with their strings in place, the
// lists filled in at run time: the mask of that array cost what it saved in unpack.

// packedRule is a Rule as indexes into a packed policy's tables: a string's index, 0 for none;
// a list's or a group's first index and the index after its last, {0, 0} for none.
type packedRule struct {
	id, pack, decision, message, argPattern, pattern uint16 // strings
	commands, args, argsAny, targets, destination    span   // lists: runs of strs
	unless, under, findings                          span   // lists: runs of strs
	subcommands, flags, except                       span   // groups: runs of groupLists
	maxArgs                                          uint16
	argsUnknown, stdinFed                            bool
}

// packed is a policy's decisions, allowlist and rules as tables.
type packed struct {
	strs       []string // strs[0] is ""; then the lists' words, list after list; then the rest
	groupLists []span   // the lists of the groups, group after group
	unknown    uint16   // string
	allow      span     // group
	rules      []packedRule
}

// unpack builds the policy named name. Its lists are slices of k.strs, each with its length
// for capacity so that an append copies (a policy is not changed after it is built). It runs
// in every guard process, so it is written for few instructions: the tables in locals, no
// closures, a field written only when it is set (make zeroes the rest).
func (k *packed) unpack(name string) *Policy {
	strs := k.strs
	lists := make([][]string, len(k.groupLists))
	for i, l := range k.groupLists {
		lists[i] = strs[l[0]:l[1]:l[1]]
	}
	lazies := 0
	for i := range k.rules {
		if k.rules[i].argPattern != 0 {
			lazies++
		}
	}
	lazy := make([]lazyRegexp, lazies)
	rules := make([]Rule, len(k.rules))
	ptrs := make([]*Rule, len(k.rules))
	for i := range k.rules {
		pr, r := &k.rules[i], &rules[i]
		ptrs[i] = r
		r.ID, r.Pack, r.Decision, r.Message = strs[pr.id], strs[pr.pack], Decision(strs[pr.decision]), strs[pr.message]
		if pr.argPattern != 0 {
			r.argLazy = &lazy[0]
			r.argLazy.expr, lazy = strs[pr.argPattern], lazy[1:]
		}
		if pr.pattern != 0 {
			// Compiled when the generator parsed it: a bad pattern cannot get here.
			r.Pattern = regexp.MustCompile(strs[pr.pattern])
		}
		if pr.commands[0] != pr.commands[1] {
			r.Commands = run(strs, pr.commands)
		}
		if pr.subcommands[0] != pr.subcommands[1] {
			r.Subcommands = run(lists, pr.subcommands)
		}
		if pr.flags[0] != pr.flags[1] {
			r.Flags = run(lists, pr.flags)
		}
		if pr.args[0] != pr.args[1] {
			r.Args = run(strs, pr.args)
		}
		if pr.argsAny[0] != pr.argsAny[1] {
			r.ArgsAny = run(strs, pr.argsAny)
		}
		if pr.targets[0] != pr.targets[1] {
			r.Targets = run(strs, pr.targets)
		}
		if pr.destination[0] != pr.destination[1] {
			r.Destination = run(strs, pr.destination)
		}
		if pr.unless[0] != pr.unless[1] {
			r.Unless = run(strs, pr.unless)
		}
		if pr.under[0] != pr.under[1] {
			r.Under = run(strs, pr.under)
		}
		if pr.except[0] != pr.except[1] {
			r.Except = run(lists, pr.except)
		}
		if pr.findings[0] != pr.findings[1] {
			r.Findings = run(strs, pr.findings)
		}
		r.MaxArgs, r.ArgsUnknown, r.StdinFed = int(pr.maxArgs), pr.argsUnknown, pr.stdinFed
	}
	return &Policy{Name: name, Unknown: Decision(strs[k.unknown]), Allow: run(lists, k.allow), Rules: ptrs}
}

// span is a run of a table: its first index and the index after its last; {0, 0} is none.
type span [2]uint16

// run is the run r of v, its capacity its length; nil when it is empty.
func run[T any](v []T, r span) []T {
	if r[0] == r[1] {
		return nil
	}
	return v[r[0]:r[1]:r[1]]
}

// packPolicy is unpack's inverse for the fields unpack builds: the generator's half. Equal
// lists and groups are stored once, and strings other than the lists' words.
func packPolicy(p *Policy) (*packed, error) {
	k := &packed{}
	var err error
	fits := func(n int, what string) uint16 {
		if (n < 0 || n > 0xffff) && err == nil {
			err = fmt.Errorf("pack the default policy: %s: %d is not between 0 and 65535", what, n)
		}
		return uint16(n)
	}
	words := []string{""}
	listIdx, groupIdx := map[string]span{}, map[string]span{}
	list := func(l []string) span {
		if len(l) == 0 {
			return span{}
		}
		key := listKey(l)
		if r, ok := listIdx[key]; ok {
			return r
		}
		r := span{fits(len(words), "number of words")}
		words = append(words, l...)
		r[1] = fits(len(words), "number of words")
		listIdx[key] = r
		return r
	}
	group := func(g [][]string) span {
		if len(g) == 0 {
			return span{}
		}
		var key strings.Builder
		for _, l := range g {
			if len(l) == 0 && err == nil {
				err = fmt.Errorf("pack the default policy: an empty list in the group %q", g)
			}
			key.WriteString(listKey(l) + "|")
		}
		if r, ok := groupIdx[key.String()]; ok {
			return r
		}
		r := span{fits(len(k.groupLists), "number of group lists")}
		for _, l := range g {
			k.groupLists = append(k.groupLists, list(l))
		}
		r[1] = fits(len(k.groupLists), "number of group lists")
		groupIdx[key.String()] = r
		return r
	}
	// The other strings go after every word, so they are numbered once the lists are done.
	var later []string
	laterIdx := map[string]int{"": -1}
	str := func(s string) int {
		if i, ok := laterIdx[s]; ok {
			return i
		}
		laterIdx[s] = len(later)
		later = append(later, s)
		return len(later) - 1
	}
	type ruleStrs struct{ id, pack, decision, message, argPattern, pattern int }
	var rs []ruleStrs
	unknown := str(string(p.Unknown))
	k.allow = group(p.Allow)
	for _, r := range p.Rules {
		x := ruleStrs{str(r.ID), str(r.Pack), str(string(r.Decision)), str(r.Message), -1, -1}
		if ap := r.argPattern(); ap != nil {
			x.argPattern = str(ap.String())
		}
		if r.Pattern != nil {
			x.pattern = str(r.Pattern.String())
		}
		rs = append(rs, x)
		k.rules = append(k.rules, packedRule{
			commands: list(r.Commands), subcommands: group(r.Subcommands), flags: group(r.Flags),
			args: list(r.Args), argsAny: list(r.ArgsAny), targets: list(r.Targets),
			destination: list(r.Destination), unless: list(r.Unless), under: list(r.Under),
			except: group(r.Except), findings: list(r.Findings),
			maxArgs: fits(r.MaxArgs, "rule "+r.ID+": max_args"), argsUnknown: r.ArgsUnknown, stdinFed: r.StdinFed,
		})
	}
	at := func(i int) uint16 { // later's i-th string, or none
		if i < 0 {
			return 0
		}
		return fits(len(words)+i, "number of strings")
	}
	for i, x := range rs {
		pr := &k.rules[i]
		pr.id, pr.pack, pr.decision, pr.message = at(x.id), at(x.pack), at(x.decision), at(x.message)
		pr.argPattern, pr.pattern = at(x.argPattern), at(x.pattern)
		if pr.argPattern != 0 && later[x.argPattern] == "" || pr.pattern != 0 && later[x.pattern] == "" {
			err = fmt.Errorf("pack the default policy: rule %s: an empty pattern", p.Rules[i].ID)
		}
	}
	k.unknown = at(unknown)
	k.strs = slices.Concat(words, later)
	return k, err
}

// listKey is l, unambiguously: each string quoted.
func listKey(l []string) string {
	var b strings.Builder
	for _, s := range l {
		b.WriteString(strconv.Quote(s))
	}
	return b.String()
}

// DefaultSource is the Go source of default_gen.go, default.yaml packed: the generator
// (./gen) formats and writes it.
func DefaultSource() ([]byte, error) {
	p, problems := ParseDefaultYAML()
	if problems.HasErrors() {
		return nil, problems.Err()
	}
	k, err := packPolicy(p)
	if err != nil {
		return nil, err
	}
	return k.source(), nil
}

// source is Go code declaring k's tables and defaultCompiled, which unpacks them.
func (k *packed) source() []byte {
	var b strings.Builder
	b.WriteString("// Code generated by go generate from default.yaml; DO NOT EDIT.\n\npackage policy\n\n")
	b.WriteString("// The default policy's tables: see defaultpack.go.\n\n")
	b.WriteString("// defaultStrs are the lists' words, list after list, then the other strings.\n")
	b.WriteString("var defaultStrs = [...]string{\n")
	for i, s := range k.strs {
		fmt.Fprintf(&b, "\t%s, // %d\n", strconv.Quote(s), i)
	}
	b.WriteString("}\n\n")
	b.WriteString("// defaultGroupLists are the groups' lists, group after group: runs of defaultStrs.\n")
	b.WriteString("var defaultGroupLists = [...]span{")
	for i, l := range k.groupLists {
		if i%10 == 0 {
			b.WriteString("\n\t")
		} else {
			b.WriteString(" ")
		}
		fmt.Fprintf(&b, "{%d, %d},", l[0], l[1])
	}
	b.WriteString("\n}\n\n")
	b.WriteString("// defaultRules are the rules, in order.\nvar defaultRules = [...]packedRule{\n")
	for _, r := range k.rules {
		var fields []string
		for _, f := range []struct {
			name string
			v    uint16
		}{{"id", r.id}, {"pack", r.pack}, {"decision", r.decision}, {"message", r.message},
			{"argPattern", r.argPattern}, {"pattern", r.pattern}, {"maxArgs", r.maxArgs}} {
			if f.v != 0 {
				fields = append(fields, fmt.Sprintf("%s: %d", f.name, f.v))
			}
		}
		for _, f := range []struct {
			name string
			v    span
		}{{"commands", r.commands}, {"subcommands", r.subcommands}, {"flags", r.flags}, {"args", r.args},
			{"argsAny", r.argsAny}, {"targets", r.targets}, {"destination", r.destination}, {"unless", r.unless},
			{"under", r.under}, {"except", r.except}, {"findings", r.findings}} {
			if f.v != (span{}) {
				fields = append(fields, fmt.Sprintf("%s: span{%d, %d}", f.name, f.v[0], f.v[1]))
			}
		}
		if r.argsUnknown {
			fields = append(fields, "argsUnknown: true")
		}
		if r.stdinFed {
			fields = append(fields, "stdinFed: true")
		}
		fmt.Fprintf(&b, "\t{%s}, // %s\n", strings.Join(fields, ", "), k.strs[r.id])
	}
	b.WriteString("}\n\n")
	fmt.Fprintf(&b, "func defaultCompiled() *Policy {\n\treturn (&packed{\n"+
		"\t\tstrs: defaultStrs[:], groupLists: defaultGroupLists[:], unknown: %d, allow: span{%d, %d},\n"+
		"\t\trules: defaultRules[:],\n"+
		"\t}).unpack(DefaultName)\n}\n", k.unknown, k.allow[0], k.allow[1])
	return []byte(b.String())
}
