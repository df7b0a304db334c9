package cli_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/internal/cli"
)

// generatedBlocks are the pages that hold agenthooks agents' output between two markers, and
// its arguments: docs/capabilities.md the whole matrix, README.md (once it has the markers) the
// summary.
var generatedBlocks = []struct {
	page string
	args []string
}{
	{"docs/capabilities.md", []string{"agents", "--markdown"}},
	{"README.md", []string{"agents", "--markdown", "--summary"}},
}

// TestCapabilitiesPage: the capability matrix in docs/capabilities.md (and the summary in the
// README, once it has the markers) is what agenthooks agents --markdown writes now; -update
// writes it anew.
func TestCapabilitiesPage(t *testing.T) {
	found := 0
	for _, g := range generatedBlocks {
		path := filepath.Join("..", "..", g.page)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		begin := "<!-- BEGIN agenthooks " + strings.Join(g.args, " ") + " -->\n"
		end := "<!-- END agenthooks " + strings.Join(g.args, " ") + " -->"
		i := bytes.Index(data, []byte(begin))
		j := bytes.Index(data, []byte(end))
		if i < 0 && j < 0 && g.page == "README.md" {
			continue // the README has no matrix yet
		}
		if i < 0 || j < i {
			t.Fatalf("%s: no %q ... %q block", g.page, begin, end)
		}
		found++
		var out, errOut bytes.Buffer
		if code := cli.Main(context.Background(), g.args, strings.NewReader(""), &out, &errOut); code != 0 {
			t.Fatalf("agenthooks %s: exit %d: %s", strings.Join(g.args, " "), code, errOut.String())
		}
		got := data[i+len(begin) : j]
		if bytes.Equal(got, out.Bytes()) {
			continue
		}
		if *updateGolden {
			fresh := append(append(append([]byte{}, data[:i+len(begin)]...), out.Bytes()...), data[j:]...)
			if err := os.WriteFile(path, fresh, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		t.Errorf("%s is not what agenthooks %s writes (go test ./internal/cli -run TestCapabilitiesPage -update):\n%s",
			g.page, strings.Join(g.args, " "), lineDiff(string(got), out.String()))
	}
	if found == 0 {
		t.Fatal("no page holds the capability matrix")
	}
}

// lineDiff lists the lines of want missing from got and the lines of got not in want.
func lineDiff(got, want string) string {
	in := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, l := range strings.Split(s, "\n") {
			m[l] = true
		}
		return m
	}
	g, w := in(got), in(want)
	var b strings.Builder
	for _, l := range strings.Split(want, "\n") {
		if !g[l] {
			b.WriteString("+ " + l + "\n")
		}
	}
	for _, l := range strings.Split(got, "\n") {
		if !w[l] {
			b.WriteString("- " + l + "\n")
		}
	}
	return b.String()
}
