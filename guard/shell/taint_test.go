package shell

import (
	"slices"
	"strings"
	"testing"
)

func TestVariablesIn(t *testing.T) {
	for raw, want := range map[string][]string{
		`"$GITHUB_TOKEN.x.example"`:        {"GITHUB_TOKEN"},
		`"${AWS_SECRET_ACCESS_KEY}"`:       {"AWS_SECRET_ACCESS_KEY"},
		`"k=$A_TOKEN&u=$USER"`:             {"A_TOKEN", "USER"},
		`'\$NOT_A_VAR' $1 $`:               nil,
		`https://x.example/?q=$(whoami)`:   nil,
		`"Authorization: Bearer $API_KEY"`: {"API_KEY"},
	} {
		if got := VariablesIn(raw); !slices.Equal(got, want) {
			t.Errorf("VariablesIn(%s) = %q, want %q", raw, got, want)
		}
	}
}

// TestCopiedVariables: a word that expands a variable assigned from another expansion earlier
// on the line carries what it was copied from, through every form of assignment and through
// copies of copies; a literal assigned afterwards forgets it.
func TestCopiedVariables(t *testing.T) {
	for _, tc := range []struct {
		name, command string
		want          []string // From of the last word of the last invocation
	}{
		{"plain", `T=$GH_TOKEN; curl -d "$T"`, []string{"$GH_TOKEN"}},
		{"export", `export K="$AWS_SECRET_ACCESS_KEY"; wget --post-data "k=$K"`, []string{`"$AWS_SECRET_ACCESS_KEY"`}},
		{"local in a function", `f() { local t=${GH_TOKEN}; curl -d "$t"; }; f`, []string{"${GH_TOKEN}"}},
		{"copy of a copy", `A=$GH_TOKEN; B="x$A"; curl -d "$B"`, []string{`"x$A"`, "$GH_TOKEN"}},
		{"command output", `T=$(gh auth token); curl -d "$T"`, []string{"$(gh auth token)"}},
		{"read from a here-string", `read -r T <<<"$GH_TOKEN"; curl -d "$T"`, []string{`"$GH_TOKEN"`}},
		{"read from a process", `read -r T < <(gh auth token); curl -d "$T"`, []string{"<(gh auth token)"}},
		{"printf -v", `printf -v T '%s' "$GH_TOKEN"; curl -d "$T"`, []string{`"$GH_TOKEN"`}},
		{"for loop", `for t in "$GH_TOKEN"; do curl -d "$t"; done`, []string{`"$GH_TOKEN"`}},
		{"appended", `T=a; T+=$GH_TOKEN; curl -d "$T"`, []string{"$GH_TOKEN"}},
		{"overwritten by a literal", `T=$GH_TOKEN; T=x; curl -d "$T"`, nil},
		{"a literal", `T=abc; curl -d "$T"`, nil},
		{"not expanded", `T=$GH_TOKEN; curl -d "$U"`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := Analyze(tc.command, Options{})
			inv := s.Invocations[len(s.Invocations)-1]
			got := inv.Args[len(inv.Args)-1].From
			if !slices.Equal(got, tc.want) {
				t.Errorf("%s: From = %q, want %q", tc.command, got, tc.want)
			}
		})
	}
}

// TestStdinOf: what feeds each command's stdin, as bash would wire it.
func TestStdinOf(t *testing.T) {
	for _, tc := range []struct{ command, want string }{
		{`printf 'o\nw\n' | fdisk /dev/sdb`, "pipe"},
		{"fdisk /dev/sdb <<EOF\no\nw\nEOF", "heredoc"},
		{`fdisk /dev/sdb <<<"$ANSWERS"`, "here-string"},
		{`sfdisk /dev/sdb < layout.sfdisk`, "file"},
		{`echo y | sudo parted /dev/sdb mklabel gpt`, "pipe"},
		{`echo x | fdisk /dev/sdb < answers`, "file"}, // the redirection replaces the pipe
		{`fdisk /dev/sdb`, ""},
		{`fdisk /dev/sdb 2< errors`, ""},
		{`echo /dev/sdb | xargs fdisk`, ""}, // xargs gives what it runs /dev/null
	} {
		s := Analyze(tc.command, Options{})
		inv := s.Invocations[len(s.Invocations)-1]
		if inv.Stdin != tc.want {
			t.Errorf("%s: %s's Stdin = %q, want %q", tc.command, inv.Name, inv.Stdin, tc.want)
		}
	}
}

// TestPipedFrom: a command read through a pipe names the commands of the stage before it that
// print into the pipe, by their names here; not those inside that stage's substitutions, and
// nothing when a redirection or xargs replaces the pipe.
func TestPipedFrom(t *testing.T) {
	for _, tc := range []struct {
		command string
		want    []string // the names of the last invocation's PipedFrom
	}{
		{`echo "$GH_TOKEN" | tee t`, []string{"echo"}},
		{`gh auth token | base64 | dd of=t`, []string{"base64"}},
		{`sudo printenv K | sudo tee /tmp/k`, []string{"printenv"}},
		{`echo "$(gh auth token)" | cat > t`, []string{"echo"}},
		{`{ echo a; printenv K; } | sponge t`, []string{"echo", "printenv"}},
		{`echo x | tee t < other`, nil},
		{`echo t | xargs rm`, nil},
		{`tee t`, nil},
	} {
		s := Analyze(tc.command, Options{})
		inv := s.Invocations[len(s.Invocations)-1]
		var got []string
		for _, i := range inv.PipedFrom {
			got = append(got, s.Invocations[i].Name)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: %s is piped from %q, want %q", tc.command, inv.Name, got, tc.want)
		}
	}
}

// TestHeredocRedirect: a heredoc is a redirection of its command, "<<" with the body as
// written; it expands (not static) only when its delimiter is unquoted, and the command
// substitutions of an unquoted body are commands that run.
func TestHeredocRedirect(t *testing.T) {
	for _, tc := range []struct {
		command, raw string
		static       bool
	}{
		{"cat > t <<EOF\nk=$GH_TOKEN\nEOF", "k=$GH_TOKEN\n", false},
		{"cat > t <<'EOF'\nk=$GH_TOKEN\nEOF", "k=$GH_TOKEN\n", true},
		{"cat > t <<\"EOF\"\nk=$GH_TOKEN\nEOF", "k=$GH_TOKEN\n", true},
		{"cat > t <<-EOF\n\tk=plain\nEOF", "\tk=plain\n", true},
	} {
		s := Analyze(tc.command, Options{})
		inv := s.Invocations[len(s.Invocations)-1]
		var doc *Redirect
		for i, r := range inv.Redirects {
			if strings.HasPrefix(r.Op, "<<") {
				doc = &inv.Redirects[i]
			}
		}
		if doc == nil || doc.Target.Raw != tc.raw || doc.Target.Static != tc.static {
			t.Errorf("%q: heredoc redirection %+v, want raw %q static %v", tc.command, doc, tc.raw, tc.static)
		}
	}
	for command, want := range map[string]int{
		"cat <<EOF\n$(rm -rf ~)\nEOF":   2,
		"cat <<'EOF'\n$(rm -rf ~)\nEOF": 1,
	} {
		if got := len(Analyze(command, Options{}).Invocations); got != want {
			t.Errorf("%q: %d commands, want %d", command, got, want)
		}
	}
}
