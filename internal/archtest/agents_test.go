package archtest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/dialect/agents"
)

// root is the module's root, from this package's folder.
const root = "../.."

// allowed are the places that may still compare an agent's name (file:function), each with why
// it cannot move into the agent's descriptor. TestNoAgentSwitches fails on a comparison that is
// not listed here, and on an entry that no longer compares anything.
var allowed = map[string]string{
	"guard/sqlc/framework.go:frameworkRules": "goose there is pressly/goose, the database migration tool, not the agent",
}

// TestNoAgentSwitches parses every non-test Go file and fails where an agent's name (a registered
// agent's name as a string, or its dialect.Name constant) is a case value or an operand of == or
// != outside the agent's own package dialect/<name>: that knowledge belongs in the agent's
// descriptor, looked up through dialect/agents.
func TestNoAgentSwitches(t *testing.T) {
	names := map[string]bool{}
	for _, n := range agents.Names() {
		names[string(n)] = true
	}
	consts := nameConsts(t, names)
	fset := token.NewFileSet()
	found := map[string][]string{} // allowlist key → positions
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if b := d.Name(); rel != "." && (strings.HasPrefix(b, ".") || b == "testdata" || b == "node_modules" || b == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for k, v := range comparisons(fset, f, rel, names, consts) {
			found[k] = append(found[k], v...)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range found {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if _, ok := allowed[k]; !ok {
			t.Errorf("%s compares an agent's name; look the agent up in dialect/agents and read its descriptor:\n\t%s", k, strings.Join(found[k], "\n\t"))
		}
	}
	for k := range allowed {
		if _, ok := found[k]; !ok {
			t.Errorf("allowlist entry %s compares no agent's name any more: remove it", k)
		}
	}
}

// nameConsts maps the identifiers of package dialect's Name constants to the agent each names.
func nameConsts(t *testing.T, names map[string]bool) map[string]string {
	f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(root, "dialect", "dialect.go"), nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, id := range vs.Names {
				if i < len(vs.Values) {
					if lit, ok := vs.Values[i].(*ast.BasicLit); ok {
						if s, err := strconv.Unquote(lit.Value); err == nil && names[s] {
							out[id.Name] = s
						}
					}
				}
			}
		}
	}
	if len(out) < 4 {
		t.Fatalf("found the Name constants %v in dialect/dialect.go, want one for each of %v", out, names)
	}
	return out
}

// comparisons lists, by allowlist key (file:function), where file rel compares an agent's name
// outside the agent's own package.
func comparisons(fset *token.FileSet, f *ast.File, rel string, names map[string]bool, consts map[string]string) map[string][]string {
	found := map[string][]string{}
	dir := filepath.ToSlash(filepath.Dir(rel))
	// agentOf names the agent an expression stands for, or "".
	agentOf := func(e ast.Expr) string {
		switch x := e.(type) {
		case *ast.BasicLit:
			if s, err := strconv.Unquote(x.Value); err == nil && x.Kind == token.STRING && names[s] {
				return s
			}
		case *ast.SelectorExpr:
			if id, ok := x.X.(*ast.Ident); ok && id.Name == "dialect" {
				return consts[x.Sel.Name]
			}
		case *ast.Ident:
			if dir == "dialect" {
				return consts[x.Name]
			}
		}
		return ""
	}
	report := func(fn string, pos token.Pos, agent string) {
		if dir == "dialect/"+agent {
			return // the agent's own package
		}
		key := rel + ":" + fn
		found[key] = append(found[key], fmt.Sprintf("%s: %s", fset.Position(pos), agent))
	}
	for _, decl := range f.Decls {
		fn := "(package level)"
		if fd, ok := decl.(*ast.FuncDecl); ok {
			fn = fd.Name.Name
		}
		ast.Inspect(decl, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.CaseClause:
				for _, v := range x.List {
					if a := agentOf(v); a != "" {
						report(fn, v.Pos(), a)
					}
				}
			case *ast.BinaryExpr:
				if x.Op == token.EQL || x.Op == token.NEQ {
					for _, v := range []ast.Expr{x.X, x.Y} {
						if a := agentOf(v); a != "" {
							report(fn, v.Pos(), a)
						}
					}
				}
			}
			return true
		})
	}
	return found
}

// TestComparisonsFound: the check sees a switch case, an == and a != on an agent's name, by
// string or by dialect constant, and lets the agent's own package and other strings be.
func TestComparisonsFound(t *testing.T) {
	src := `package p
func f(s string, n dialect.Name) {
	switch s {
	case "claude", "other":
	}
	_ = n == dialect.Codex
	_ = "gemini" != s
	_ = s == "cursors"
}
func g(n dialect.Name) { switch n { case dialect.Cursor: } }
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{"claude": true, "codex": true, "gemini": true, "cursor": true}
	consts := map[string]string{"Claude": "claude", "Codex": "codex", "Gemini": "gemini", "Cursor": "cursor"}
	got := comparisons(fset, f, "x/p.go", names, consts)
	if len(got["x/p.go:f"]) != 3 || len(got["x/p.go:g"]) != 1 || len(got) != 2 {
		t.Errorf("found %v", got)
	}
	if own := comparisons(fset, f, "dialect/claude/p.go", names, consts); len(own["dialect/claude/p.go:f"]) != 2 {
		t.Errorf("in dialect/claude, want only the other agents' names: %v", own)
	}
}
