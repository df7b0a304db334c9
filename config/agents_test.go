package config

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/agenthooks/agenthooks/dialect"
)

// TestAgentCandidatesFollowTheDescriptor: a new agent's files are found where its descriptor
// says, in its order: the managed folder (moved by its variable), globs in name order, each
// workspace's files together, and the user folder moved by its HomeEnv.
func TestAgentCandidatesFollowTheDescriptor(t *testing.T) {
	dir := t.TempDir()
	managed := filepath.Join(dir, "managed")
	for _, p := range []string{"managed/drop.d/b.json", "managed/drop.d/a.json"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	a := &dialect.Agent{Name: "newagent", Dir: ".newagent", HomeEnv: "NEWAGENT_HOME", ManagedEnv: "NEWAGENT_MANAGED",
		ManagedDir: func(string) string { return "/nowhere" },
		Files: []dialect.Location{
			{Scope: dialect.ScopeEnterprise, Root: dialect.RootManaged, Path: "drop.d/*.json", Format: dialect.FormatSettings},
			{Scope: dialect.ScopeLocal, Root: dialect.RootWorkspace, Path: ".newagent/local.json", Format: dialect.FormatSettings},
			{Scope: dialect.ScopeProject, Root: dialect.RootWorkspace, Path: ".newagent/hooks.json", Format: dialect.FormatHooks},
			{Scope: dialect.ScopeUser, Root: dialect.RootHome, Path: "hooks.json", Format: dialect.FormatHooks},
		}}
	vars := map[string]string{"NEWAGENT_HOME": "/home/u/elsewhere", "NEWAGENT_MANAGED": managed}
	env := Env{Home: "/home/u", Workspaces: []string{"/w1", "/w2"}, Getenv: func(k string) string { return vars[k] }}
	var got []string
	for _, c := range AgentCandidates(env, a) {
		if c.Family != "newagent" {
			t.Errorf("%s: family %q", c.Path, c.Family)
		}
		got = append(got, string(c.Layer)+" "+filepath.ToSlash(c.Path))
	}
	want := []string{
		"enterprise " + filepath.ToSlash(filepath.Join(managed, "drop.d", "a.json")),
		"enterprise " + filepath.ToSlash(filepath.Join(managed, "drop.d", "b.json")),
		"local /w1/.newagent/local.json", "project /w1/.newagent/hooks.json",
		"local /w2/.newagent/local.json", "project /w2/.newagent/hooks.json",
		"user /home/u/elsewhere/hooks.json",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("candidates:\n got  %q\n want %q", got, want)
	}
	vars = nil
	env.Home = ""
	if c := AgentCandidates(env, a); len(c) != 4 {
		t.Errorf("without a home or its variables, only the workspaces' files: %+v", c)
	}
}
