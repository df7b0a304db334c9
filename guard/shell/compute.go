package shell

import (
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// What bash computes from the builtins that carry words from one command to the next: arrays
// (arr=(~ .git); rm -rf "${arr[@]}"), set -- (set -- ~; rm -rf "$@") and read from a
// here-string or heredoc (read -r d <<< ~; rm -rf "$d"). Each is resolved with the same static
// expander as every other word: what cannot be known stays dynamic, never empty.
//
// mvdan.cc/sh's interp could compute these by running the command with handlers that refuse
// every exec and open; linking it was measured (issue 14) and is not done: it adds three
// package initialisations to every guard process (interp's own allocates at init), about
// 590 KB to the binary, and 0.06 to 0.2 ms to each evaluation, for constructs the expander
// already computes once the analysis keeps arrays and positional parameters.

// maxArray bounds the elements an array assignment keeps.
const maxArray = 64

// assignArray keeps an indexed array assigned with literal elements (arr=(a b), arr+=(c)).
// An element with an index ([2]=x) or an associative array makes the whole array dynamic.
func (a *analyzer) assignArray(as *syntax.Assign) {
	name := as.Name.Value
	a.vars[name] = Dyn
	var list []string
	if as.Append {
		if old, ok := a.arrays[name]; ok {
			list = append(list, old...)
		} else {
			delete(a.arrays, name)
			return
		}
	}
	for _, el := range as.Array.Elems {
		if el.Index != nil || el.Value == nil {
			delete(a.arrays, name)
			return
		}
		for _, w := range a.fields([]*syntax.Word{el.Value}) {
			list = append(list, w.Value)
		}
	}
	if len(list) > maxArray {
		delete(a.arrays, name)
		return
	}
	a.setArray(name, list)
}

// setArray keeps name as an indexed array of list.
func (a *analyzer) setArray(name string, list []string) {
	if a.arrays == nil {
		a.arrays = map[string][]string{}
	}
	if list == nil {
		list = []string{}
	}
	a.arrays[name] = list
	a.vars[name] = Dyn
	if len(list) > 0 {
		a.vars[name] = list[0] // $arr is its first element
	}
}

// arrayVar is the expander's view of an array the command line assigned.
func (a *analyzer) arrayVar(name string) (expand.Variable, bool) {
	list, ok := a.arrays[name]
	if !ok {
		return expand.Variable{}, false
	}
	return expand.Variable{Set: true, Kind: expand.Indexed, List: list}, true
}

// setBuiltin follows `set -- WORDS` and `set WORDS`: the words become the positional
// parameters. Options alone (set -e, set -o pipefail) leave them as they are.
func (a *analyzer) setBuiltin(args []Word) {
	for i, w := range args {
		switch {
		case w.Value == "--" || w.Value == "-":
			a.setParams(append([]Word{{Value: a.vars["0"]}}, args[i+1:]...))
			return
		case w.Value == "-o" || w.Value == "+o":
			return // set -o NAME: an option, and no parameters
		case strings.HasPrefix(w.Value, "-") || strings.HasPrefix(w.Value, "+"):
			continue
		default:
			a.setParams(append([]Word{{Value: a.vars["0"]}}, args[i:]...))
			return
		}
	}
}

// readBuiltin follows `read [-r] NAME...` fed by a here-string or heredoc: the line is split
// into the names by IFS, the last taking the rest. Fed by anything else (a pipe runs read in a
// subshell; a file or the terminal cannot be seen), or with an option it does not know, the
// names become dynamic. mapfile (readarray) reads every line into one array.
func (a *analyzer) readBuiltin(args []Word, ctx *callCtx, mapfile bool) {
	var names []string
	raw, array, delim := false, "", "\n"
	known := true
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		if !args[i].Static {
			known = false
			continue
		}
		if len(v) < 2 || v[0] != '-' || v == "--" {
			if v != "--" {
				names = append(names, v)
			}
			continue
		}
		// a cluster of options (-ra NAME, -d '' -r), the last of which may take a value
		for j := 1; j < len(v); j++ {
			switch c := v[j]; c {
			case 'r', 's', 'e':
				raw = raw || c == 'r'
			case 't':
				if !mapfile {
					known = false // a timeout: the line may never come
				}
				raw = true
			case 'a', 'd', 'p', 'u', 'n', 'N', 'i', 'O', 'c', 'C':
				value := v[j+1:]
				if value == "" && i+1 < len(args) {
					i++
					value = args[i].Value
				}
				switch c {
				case 'a':
					array = value
				case 'd':
					delim = value
				case 'p', 'i':
				default:
					known = false
				}
				j = len(v)
			default:
				known = false
			}
		}
	}
	if mapfile {
		array, names = "MAPFILE", nil
		if n := len(args); n > 0 && args[n-1].Static && !strings.HasPrefix(args[n-1].Value, "-") {
			array = args[n-1].Value
		}
		delim = ""
	}
	if len(names) == 0 && array == "" {
		names = []string{"REPLY"}
	}
	for _, n := range names {
		a.copyInto(n, a.stdinRaws(ctx.stmt)...)
	}
	if array != "" {
		a.copyInto(array, a.stdinRaws(ctx.stmt)...)
	}
	text, ok := "", false
	if ctx.stmt != nil && hasStdinString(ctx.stmt) && ctx.stdin == nil {
		text, ok, _ = a.stdinText(ctx)
	}
	if !ok || !known || strings.Contains(text, Dyn) {
		for _, n := range names {
			a.vars[n] = Dyn
		}
		if array != "" {
			a.vars[array] = Dyn
			delete(a.arrays, array)
		}
		return
	}
	if mapfile {
		lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
		if len(lines) > maxArray {
			a.vars[array] = Dyn
			delete(a.arrays, array)
			return
		}
		a.setArray(array, lines)
		return
	}
	if delim == "" {
		delim = "\x00"
	}
	line, _, _ := strings.Cut(text, delim[:1])
	if !raw {
		line = strings.ReplaceAll(line, "\\\n", "")
		line = unescapeLit(line)
	}
	ifs := " \t\n"
	if v, ok := a.vars["IFS"]; ok && !strings.Contains(v, Dyn) {
		ifs = v
	}
	isIFS := func(r rune) bool { return strings.ContainsRune(ifs, r) }
	if array != "" {
		a.setArray(array, strings.FieldsFunc(line, isIFS))
		return
	}
	line = strings.TrimFunc(line, func(r rune) bool { return isIFS(r) && strings.ContainsRune(" \t\n", r) })
	for i, n := range names {
		if i == len(names)-1 {
			a.vars[n] = line
			break
		}
		head, rest := line, ""
		if j := strings.IndexFunc(line, isIFS); j >= 0 {
			head, rest = line[:j], strings.TrimLeftFunc(line[j:], isIFS)
		}
		a.vars[n] = head
		line = rest
	}
}

// evalText is what eval prints when the text it runs is known and prints it: the words are
// joined, parsed again and computed as a command substitution would be ($(eval echo ~user)).
func (a *analyzer) evalText(words []Word) (string, bool) {
	parts := make([]string, len(words))
	for i, w := range words {
		if !w.Static {
			return "", false
		}
		parts[i] = w.Value
	}
	file, err := a.parser.Parse(strings.NewReader(strings.Join(parts, " ")), "")
	if err != nil {
		return "", false
	}
	outer := a.src
	a.src = strings.Join(parts, " ")
	defer func() { a.src = outer }()
	return a.substText(file.Stmts)
}

// printfVar is printf -v NAME FORMAT ARGS: NAME holds what printf would print, or a value not
// known until it runs.
func (a *analyzer) printfVar(args []Word) {
	name := args[0].Value
	if !args[0].Static || name == "" {
		return
	}
	raws := make([]string, 0, len(args)-1)
	for _, w := range args[1:] {
		raws = append(raws, w.Raw)
	}
	a.copyInto(name, raws...)
	vals := make([]string, 0, len(args)-2)
	known := args[1].Static
	for _, w := range args[2:] {
		vals = append(vals, w.Value)
		known = known && w.Static
	}
	if !known {
		a.vars[name] = Dyn
		return
	}
	a.vars[name] = printfText(args[1].Value, vals)
}
