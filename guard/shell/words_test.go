package shell

import (
	"slices"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// plainLiteralSeeds are command lines whose words plainLiteral takes or leaves to the expander.
var plainLiteralSeeds = []string{
	"cd web && npm ci && npm run build -- --prod > build.log 2>&1",
	"rm -rf ~ ~/x a~b x=~ ./~ *.go a?b [ab] ]",
	`git commit -m "msg" 'q' a\ b \~ a{b,c} {a..c} a{ b} x{}`,
	"echo $HOME ${X} $(pwd) `pwd` $((1+2)) <(ls) @(a|b) x=y --opt=v a'$(b)'c \"$(d)\" $'\\n' $\"x\"",
	"héllo wörld \u00a0 \x7f #c",
	"IFS=: ; echo a:b",
}

// samePlainLiteral checks, for every word of a command line that plainLiteral takes, that
// expand.Fields gives the one field plainLiteral gives, with the analyser's own expander; and
// for every word quotedOrLiteral takes, that nestedInWord's walk would find no command in it.
func samePlainLiteral(t *testing.T, src string) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash), syntax.KeepComments(true)).Parse(strings.NewReader(src), "")
	if err != nil {
		return
	}
	a := &analyzer{opts: Options{Home: "/home/dev", Cwd: "/p"}, script: &Script{}, vars: map[string]string{"IFS": ":"},
		funcs: map[string]bool{}, cwd: "/p", src: src}
	syntax.Walk(f, func(n syntax.Node) bool {
		w, ok := n.(*syntax.Word)
		if !ok {
			return true
		}
		if quotedOrLiteral(w) {
			syntax.Walk(w, func(n syntax.Node) bool {
				switch n.(type) {
				case *syntax.CmdSubst, *syntax.ProcSubst:
					t.Fatalf("%q: quotedOrLiteral, yet it holds %T", a.source(w), n)
				}
				return true
			})
		}
		v, ok := plainLiteral(w)
		if !ok {
			return true
		}
		want, err := expand.Fields(a.config(), w)
		if err != nil || !slices.Equal([]string{v}, want) {
			t.Fatalf("%q: plainLiteral gives %q, expand.Fields %q (%v)", a.source(w), v, want, err)
		}
		return true
	})
}

// TestPlainLiteralAsFields: the fields shortcut gives what the expander gives, and the walk
// skipped for a literal word would have found nothing.
func TestPlainLiteralAsFields(t *testing.T) {
	for _, src := range plainLiteralSeeds {
		samePlainLiteral(t, src)
	}
}

// FuzzPlainLiteralAsFields: the same for any command line.
func FuzzPlainLiteralAsFields(f *testing.F) {
	for _, src := range plainLiteralSeeds {
		f.Add(src)
	}
	f.Fuzz(samePlainLiteral)
}
