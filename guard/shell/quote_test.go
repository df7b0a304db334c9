package shell

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// TestQuote parses each quoted string back with the shell parser: it must be one word that
// expands to the original, and a plain word stays bare.
func TestQuote(t *testing.T) {
	for _, s := range []string{"/usr/bin/x", "a b", "it's", "", "$HOME", "a\nb", "~x", "x=y", "-rf", "*", "`id`", "a;b", "'", `\`} {
		q := Quote(s)
		f, err := syntax.NewParser().Parse(strings.NewReader("cmd "+q), "")
		if err != nil {
			t.Fatalf("Quote(%q) = %s does not parse: %v", s, q, err)
		}
		call := f.Stmts[0].Cmd.(*syntax.CallExpr)
		if len(call.Args) != 2 {
			t.Fatalf("Quote(%q) = %s is %d words", s, q, len(call.Args)-1)
		}
		got, err := expand.Fields(nil, call.Args[1])
		if err != nil || len(got) != 1 || got[0] != s {
			t.Fatalf("Quote(%q) = %s expands to %q (%v)", s, q, got, err)
		}
	}
	if Quote("/usr/bin/x") != "/usr/bin/x" || Quote("x=y") != "'x=y'" {
		t.Fatal("plain words must stay bare and assignments must be quoted")
	}
}
