package policy

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/guard/shell"
)

var update = flag.Bool("update", false, "rewrite the .errors files of testdata/invalid")

// TestDefaultIsCurrent: the generated default policy is default.yaml, compiled.
func TestDefaultIsCurrent(t *testing.T) {
	t.Parallel()
	fromYAML, problems := ParseDefaultYAML()
	if problems.HasErrors() {
		t.Fatal(problems.Err())
	}
	// Default is the shell guard's part of the policy: the other guards' sections come from
	// DefaultFull.
	fromYAML.Read, fromYAML.Prompt, fromYAML.MCP, fromYAML.Confine = nil, nil, nil, nil
	if d := policyDiff(fromYAML, Default()); d != "" {
		t.Fatalf("%s\nrun go generate ./guard/policy", d)
	}
}

// TestPackRoundTrip: every field the packed form stores comes back from it, a pattern and both
// switches included (default.yaml has no rule with a pattern), and equal lists come back as
// slices that an append cannot make share.
func TestPackRoundTrip(t *testing.T) {
	t.Parallel()
	src := `version: 1
shell:
  unknown: ask
  allow: [git, kubectl get, ls]
  rules:
    - id: one
      pack: files
      decision: deny
      message: a message
      command: [rm, "rm*"]
      subcommand: ["a b", c]
      flags: ["-r|-R", -f]
      args: ["x*"]
      args_any: ["y*", "z"]
      targets: [root, home]
      destination: [tmp]
      unless: [--cached]
      under: [sudo]
      except: ["rm -i"]
      arg_pattern: '^a+$'
      max_args: 3
      args_unknown: true
      stdin_fed: true
    - id: two
      decision: ask
      pattern: 'rm\s+-rf'
    - id: three
      decision: deny
      finding: [fork-bomb]
      message: a message
`
	p, problems := Parse("t.yaml", []byte(src))
	if problems.HasErrors() {
		t.Fatal(problems.Err())
	}
	// A field added to Rule must be set here, so that the round trip covers it.
	rt := reflect.TypeFor[Rule]()
	for i := range rt.NumField() {
		set := false
		for _, r := range p.Rules {
			set = set || !reflect.ValueOf(r).Elem().Field(i).IsZero()
		}
		if name := rt.Field(i).Name; !set && name != "argLazy" { // argLazy: the packed form's ArgPattern
			t.Errorf("no rule of the test policy sets %s", name)
		}
	}
	k, err := packPolicy(p)
	if err != nil {
		t.Fatal(err)
	}
	got := k.unpack("t.yaml")
	want := *p
	want.Read, want.Prompt, want.MCP, want.Confine = nil, nil, nil, nil
	if d := policyDiff(&want, got); d != "" {
		t.Fatal(d)
	}
	if r := got.Rules[0]; r.argPattern() == nil || !r.argPattern().MatchString("aaa") || r.Pattern != nil {
		t.Fatalf("rule one's patterns: %v %v", r.argPattern(), r.Pattern)
	}
	if r := got.Rules[1]; r.Pattern == nil || !r.Pattern.MatchString("rm  -rf") || r.argPattern() != nil {
		t.Fatalf("rule two's patterns: %v %v", r.argPattern(), r.Pattern)
	}
	cmds := got.Rules[0].Commands
	if cap(cmds) != len(cmds) || cap(got.Allow) != len(got.Allow) {
		t.Fatal("a list's capacity reaches into its neighbour")
	}
}

// policyDiff says how b differs from a, comparing every field (a pattern by its text), or is "".
func policyDiff(a, b *Policy) string {
	if len(a.Rules) != len(b.Rules) {
		return "the numbers of rules differ"
	}
	for i := range a.Rules {
		ra, rb := *a.Rules[i], *b.Rules[i]
		ra.ArgPattern, rb.ArgPattern = ra.argPattern(), rb.argPattern()
		ra.argLazy, rb.argLazy = nil, nil
		for _, re := range [][2]**regexp.Regexp{{&ra.ArgPattern, &rb.ArgPattern}, {&ra.Pattern, &rb.Pattern}} {
			x, y := *re[0], *re[1]
			if (x == nil) != (y == nil) || x != nil && x.String() != y.String() {
				return fmt.Sprintf("rule %s: patterns differ: %v, %v", ra.ID, x, y)
			}
			*re[0], *re[1] = nil, nil
		}
		if !reflect.DeepEqual(ra, rb) {
			return fmt.Sprintf("rule %s differs:\n %+v\n %+v", ra.ID, ra, rb)
		}
	}
	pa, pb := *a, *b
	pa.Rules, pb.Rules = nil, nil
	if !reflect.DeepEqual(pa, pb) {
		return fmt.Sprintf("the policies differ:\n %+v\n %+v", pa, pb)
	}
	return ""
}

// TestInvalidPolicies checks every invalid policy against the exact lines it must give.
func TestInvalidPolicies(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob("testdata/invalid/*.yaml")
	if len(files) == 0 {
		t.Fatal("no invalid policies")
	}
	for _, path := range files {
		data, _ := os.ReadFile(path)
		p, problems := Parse(filepath.Base(path), data)
		if p != nil || !problems.HasErrors() {
			t.Errorf("%s: accepted", path)
		}
		var lines []string
		for _, pr := range problems {
			lines = append(lines, pr.String())
		}
		got := strings.Join(lines, "\n") + "\n"
		golden := strings.TrimSuffix(path, ".yaml") + ".errors"
		if *update {
			os.WriteFile(golden, []byte(got), 0o644)
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if got != string(want) {
			t.Errorf("%s:\n got:\n%s want:\n%s", path, got, want)
		}
	}
}

func TestGlobMatch(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		p, s string
		want bool
	}{
		{"mkfs*", "mkfs.ext4", true}, {"mkfs*", "mkfs", true}, {"mkfs*", "xmkfs", false}, {"+*", "+refs/heads/main:main", true},
		{"+*", "main", false}, {"a?c", "abc", true}, {"a?c", "ac", false}, {"*", "", true}, {"ns/*", "ns/prod", true},
		{"*.*", "a.b", true}, {"*.*", "ab", false}, {"rm", "rm", true}, {"rm", "rmdir", false},
	} {
		if got := globMatch(c.p, c.s); got != c.want {
			t.Errorf("globMatch(%q, %q) = %v", c.p, c.s, got)
		}
	}
}

func TestClassify(t *testing.T) {
	t.Parallel()
	c := &classifier{ctx: Context{Home: "/home/dev", Cwd: "/home/dev/project", Project: "/home/dev/project"}}
	inv := &shell.Invocation{Cwd: "/home/dev/project"}
	word := func(v string, glob bool) shell.Word { return shell.Word{Value: v, Static: true, Glob: glob} }
	for _, tc := range []struct {
		w    shell.Word
		want string
	}{
		{word("/", false), TargetRoot}, {word("/*", true), TargetRoot}, {word("/home/dev", false), TargetHome},
		{word("/home/dev/*", true), TargetHome}, {word("/usr", false), TargetSystem}, {word("/etc/nginx", false), TargetSystem},
		{word("..", false), TargetHome}, {word("../..", false), TargetSystem}, {word(".", false), TargetProjectRoot},
		{word("*", true), TargetProjectRoot}, {word(".git", false), TargetGit}, {word(".git/objects", false), TargetGit},
		{word(".git/hooks/x", false), TargetProject}, {word("build", false), TargetProject}, {word("*.o", true), TargetProject},
		{word("/home/dev/.cache/pip", false), TargetCache}, {word("/home/dev/Documents", false), TargetHomeData},
		{word("/home/dev/Documents/old", false), TargetHomeSub}, {word("/home/dev/.config", false), TargetHomeData},
		{word("/tmp/x", false), TargetTmp}, {word("/dev/sda", false), TargetDevice}, {word("/opt/app/x", false), TargetOther},
		{shell.Word{Value: shell.Dyn}, TargetDynamic},
	} {
		if got := c.classify(tc.w, inv); got != tc.want {
			t.Errorf("classify(%q) = %s, want %s", tc.w.Value, got, tc.want)
		}
	}
	deep := &classifier{ctx: Context{Home: "/home/dev", Cwd: "/home/dev/src/app", Project: "/home/dev/src/app"}}
	if got := deep.classify(word("..", false), &shell.Invocation{Cwd: "/home/dev/src/app"}); got != TargetParent {
		t.Errorf("the folder above the project is %s, want parent", got)
	}
	if got := c.classify(word(".", false), &shell.Invocation{}); got != TargetDynamic {
		t.Errorf("a relative path in an unknown folder is %s, want dynamic", got)
	}
	filtered := &shell.Invocation{Cwd: "/home/dev/project", Filtered: true}
	if got := c.classify(word(".", false), filtered); got != TargetProject {
		t.Errorf("a filtered find in the project root is %s, want project", got)
	}
	root := &classifier{ctx: Context{Home: "/root", Cwd: "/", Project: "/"}}
	if got := root.classify(word("/etc", false), &shell.Invocation{Cwd: "/"}); got != TargetSystem {
		t.Errorf("with the project at /, /etc is %s, want system", got)
	}
}

// FuzzParse: any bytes parse without panic, and every problem has a place and a text.
func FuzzParse(f *testing.F) {
	f.Add(DefaultYAML)
	files, _ := filepath.Glob("testdata/invalid/*.yaml")
	for _, path := range files {
		data, _ := os.ReadFile(path)
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, problems := Parse("fuzz.yaml", data)
		if (p == nil) != problems.HasErrors() {
			t.Fatalf("policy %v with problems %v", p != nil, problems)
		}
		for _, pr := range problems {
			if pr.Message == "" || pr.File == "" {
				t.Fatalf("problem without text or file: %+v", pr)
			}
		}
	})
}

// A deeply nested policy is refused before the YAML parser builds it (its memory is quadratic
// in depth): with a position, quickly.
func TestDeepPolicyRefused(t *testing.T) {
	deep := "version: 1\nshell:\n  rules:\n" + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + "\n"
	_, problems := Parse("deep.yaml", []byte(deep))
	if !problems.HasErrors() || !strings.Contains(problems.Err().Error(), "nests more than") {
		t.Fatalf("a policy nested 20,000 deep: %v", problems.Err())
	}
}
