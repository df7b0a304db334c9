package dialect

import (
	"slices"
	"strings"
	"testing"
)

// TestRulesSubjects: the command as written and each command in it, as text and as words, with
// the wrappers' words before it and the bare name of a command given by path.
func TestRulesSubjects(t *testing.T) {
	q := RulesQuery{Command: " sudo /bin/rm -rf x && FOO=1 ", Calls: []RulesCall{
		{Words: []string{"/bin/rm", "-rf", "x"}, Wrappers: []string{"sudo"}}, {}}}
	texts, argvs := q.Subjects()
	if want := []string{"sudo /bin/rm -rf x && FOO=1", "/bin/rm -rf x", "sudo /bin/rm -rf x"}; !slices.Equal(texts, want) {
		t.Errorf("texts %q, want %q", texts, want)
	}
	var got []string
	for _, a := range argvs {
		got = append(got, strings.Join(a, "|"))
	}
	want := []string{"bash|-lc|" + q.Command, "/bin/rm|-rf|x", "rm|-rf|x", "sudo|/bin/rm|-rf|x"}
	if !slices.Equal(got, want) {
		t.Errorf("argvs %q, want %q", got, want)
	}
}
