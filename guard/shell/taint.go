package shell

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A variable assigned from other expansions carries them along: T=$GH_TOKEN makes "$T" the
// token, K=$(gh auth token) makes "$K" what gh prints, and a word that expands T later on the
// line is given them in Word.From, so that a rule which judges what a word holds (a secret sent
// off the machine) sees through the copy. The copies follow assignments in the order the line
// makes them (plain, export/declare/local, read from a here-string or heredoc, printf -v, a for
// loop's list); a later assignment of a literal forgets them.

// maxFrom bounds the expansions a variable carries.
const maxFrom = 16

// VariablesIn lists the names of the variables a word as written expands ($NAME, ${NAME}).
func VariablesIn(raw string) []string {
	var out []string
	for i := 0; i < len(raw); i++ {
		if raw[i] != '$' || i > 0 && raw[i-1] == '\\' {
			continue
		}
		j := i + 1
		if j < len(raw) && raw[j] == '{' {
			j++
		}
		k := j
		for k < len(raw) && (raw[k] == '_' || raw[k] >= 'A' && raw[k] <= 'Z' || raw[k] >= 'a' && raw[k] <= 'z' || k > j && raw[k] >= '0' && raw[k] <= '9') {
			k++
		}
		if k > j {
			out = append(out, raw[j:k])
		}
		i = k - 1
	}
	return out
}

// expands reports whether text as written expands something: a variable, a command
// substitution or a process substitution.
func expands(raw string) bool {
	return strings.ContainsAny(raw, "$`") || strings.Contains(raw, "<(")
}

// fromOf is what text as written carries: the text itself when it expands something, and what
// each variable it expands was copied from.
func (a *analyzer) fromOf(raws ...string) []string {
	var out []string
	add := func(s string) {
		for _, o := range out {
			if o == s {
				return
			}
		}
		if len(out) < maxFrom {
			out = append(out, s)
		}
	}
	for _, raw := range raws {
		if !expands(raw) {
			continue
		}
		add(raw)
		if a.copies == nil {
			continue
		}
		for _, name := range VariablesIn(raw) {
			for _, s := range a.copies[name] {
				add(s)
			}
		}
	}
	return out
}

// copyInto records that variable name now holds what raws expand, or forgets what it held when
// they expand nothing.
func (a *analyzer) copyInto(name string, raws ...string) {
	from := a.fromOf(raws...)
	if len(from) == 0 {
		if a.copies != nil {
			delete(a.copies, name)
		}
		return
	}
	if a.copies == nil {
		a.copies = map[string][]string{}
	}
	a.copies[name] = from
}

// stdinRaws are the here-strings, heredoc bodies and process substitutions a statement reads
// on stdin, as written.
func (a *analyzer) stdinRaws(s *syntax.Stmt) []string {
	if s == nil {
		return nil
	}
	var out []string
	for _, r := range s.Redirs {
		switch r.Op {
		case syntax.WordHdoc, syntax.RdrIn:
			out = append(out, a.source(r.Word))
		case syntax.Hdoc, syntax.DashHdoc:
			if r.Hdoc != nil {
				out = append(out, a.source(r.Hdoc))
			}
		}
	}
	return out
}

// withFrom gives each word that expands a copied variable what it was copied from.
func (a *analyzer) withFrom(args []Word) []Word {
	if len(a.copies) == 0 {
		return args
	}
	var out []Word
	for i, w := range args {
		if w.Static || w.Raw == "" {
			continue
		}
		from := a.fromOf(w.Raw)
		if len(from) < 2 { // the word itself only
			continue
		}
		if out == nil {
			out = append([]Word(nil), args...)
		}
		out[i].From = append(out[i].From[:len(out[i].From):len(out[i].From)], from[1:]...)
	}
	if out == nil {
		return args
	}
	return out
}

// pipedFrom is the pipeline that feeds a command's stdin, as written, in the form of the command
// substitution that would print the same ("$(redis-cli --scan | awk '{print $1}')"), or "".
func (a *analyzer) pipedFrom(src *stdinSource) string {
	var stages []string
	for s := src; s != nil; s = s.prev {
		if s.stmt == nil {
			return ""
		}
		stages = append(stages, a.source(s.stmt))
	}
	if len(stages) == 0 {
		return ""
	}
	slices.Reverse(stages)
	return "$(" + strings.Join(stages, " | ") + ")"
}

// maxPrinters bounds the commands of a pipeline's stage that a later stage is said to read.
const maxPrinters = 16

// printers lists the invocations recorded from index from on that print into the pipe after
// the stage they were found in: not those inside its command or process substitutions, whose
// output becomes words or a file name.
func (a *analyzer) printers(from int, f *frame) []int {
	var out []int
	for i := from; i < len(a.script.Invocations) && len(out) < maxPrinters; i++ {
		w := a.script.Invocations[i].Wrappers
		if len(w) < len(f.wrappers) {
			continue
		}
		if !slices.Contains(w[len(f.wrappers):], "$(…)") && !slices.Contains(w[len(f.wrappers):], "<(…)") {
			out = append(out, i)
		}
	}
	return out
}

// heredoc is the text a heredoc feeds a command, resolved as bash expands it (not at all when
// its delimiter is quoted), with its body as written in Raw.
func (a *analyzer) heredoc(r *syntax.Redirect) Word {
	w := a.document(r)
	if r.Hdoc == nil {
		return w
	}
	w.Raw = a.source(r.Hdoc)
	// the node ends after the closing delimiter's line: the body is what comes before it
	body := strings.TrimSuffix(w.Raw, "\n")
	i := strings.LastIndexByte(body, '\n')
	if strings.TrimLeft(body[i+1:], "\t") == a.literal(r.Word).Value {
		w.Raw = body[:i+1]
	}
	return w
}
