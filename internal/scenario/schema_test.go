package scenario

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/agenthooks/agenthooks/dialect/agents"
	"github.com/agenthooks/agenthooks/schemas"
)

func scenarioSchema(t *testing.T) *schemas.Schema {
	t.Helper()
	s, err := schemas.Load(schemas.Scenario)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSchemaKeysMatchDecoder keeps schemas/scenario.schema.json in step with File's yaml tags
// (unknown keys are errors there), at every level, both ways.
func TestSchemaKeysMatchDecoder(t *testing.T) {
	s := scenarioSchema(t)
	for _, d := range s.CompareStruct(reflect.TypeFor[File](), "yaml") {
		t.Error(d)
	}
	if got, want := s.Enum("scenarios", "expect", "decision"), []string{"allow", "ask", "deny", "defer", "none"}; !slices.Equal(got, want) {
		t.Errorf("schema's decisions %q, Parse takes %q", got, want)
	}
	for _, d := range s.Enum("scenarios", "expect", "decision") {
		if _, err := Parse("s.yaml", []byte("scenarios: [{event: stop, expect: {decision: "+d+"}}]")); err != nil {
			t.Errorf("decision %s: %v", d, err)
		}
	}
	for _, a := range s.Enum("scenarios", "agent") {
		if _, err := Parse("s.yaml", []byte("scenarios: [{agent: "+a+", event: stop, expect: {decision: none}}]")); err != nil {
			t.Errorf("agent %s: %v", a, err)
		}
	}
	for _, n := range agents.Names() {
		if !slices.Contains(s.Enum("scenarios", "agent"), string(n)) {
			t.Errorf("the registered agent %s is not in schemas/scenario.schema.json's agents", n)
		}
	}
}

// TestSchemaValidatesScenarios: the examples and every scenario file of the CLI's testscripts
// that Parse accepts are accepted by the schema.
func TestSchemaValidatesScenarios(t *testing.T) {
	s := scenarioSchema(t)
	check := func(name string, data []byte) {
		if !strings.Contains(string(data), "scenarios:") {
			return
		}
		if _, err := Parse(name, data); err != nil {
			return
		}
		var doc any
		if err := yaml.Unmarshal(data, &doc); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, p := range s.Validate(doc) {
			t.Errorf("%s: %s", name, p)
		}
	}
	files, _ := filepath.Glob(filepath.Join("..", "..", "examples", "scenarios", "*.yaml"))
	if len(files) == 0 {
		t.Fatal("no example scenario files")
	}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Parse(name, data); err != nil {
			t.Errorf("example: %v", err)
		}
		check(name, data)
	}
	scripts, _ := filepath.Glob(filepath.Join("..", "cli", "testdata", "script", "*.txtar"))
	for _, script := range scripts {
		ar, err := txtar.ParseFile(script)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if strings.HasSuffix(f.Name, ".yaml") || strings.HasSuffix(f.Name, ".yml") {
				check(filepath.Base(script)+": "+f.Name, f.Data)
			}
		}
	}
	var doc any
	if err := yaml.Unmarshal([]byte("scenarios: [{event: stop, expect: {decision: maybe}, extra: 1}]"), &doc); err != nil {
		t.Fatal(err)
	}
	if p := s.Validate(doc); len(p) != 2 {
		t.Errorf("a bad decision and an unknown key: the schema says %q", p)
	}
}

// TestSchemaKeyAccepted: a top-level "$schema" key, which editors read, is accepted and ignored.
func TestSchemaKeyAccepted(t *testing.T) {
	src := "$schema: https://raw.githubusercontent.com/agenthooks/agenthooks/main/schemas/scenario.schema.json\n" +
		"scenarios:\n  - {event: stop, expect: {decision: none}}\n"
	f, err := Parse("s.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Scenarios) != 1 {
		t.Errorf("scenarios = %+v", f.Scenarios)
	}
}
