// Package scenario reads policy test files: scenarios, each an agent's event, a payload and the
// decision expected of the hooks config and policy the file names. It imports goccy/go-yaml, and
// dialect/agents for the agents a scenario may be for.
package scenario

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/goccy/go-yaml"

	"github.com/agenthooks/agenthooks/dialect/agents"
)

// MaxFileSize bounds a scenario file.
const MaxFileSize = 4 << 20

// File is one scenario file.
type File struct {
	// Schema is the file's JSON Schema ($schema), for editors; it is ignored.
	Schema string `yaml:"$schema"`
	// Config, Settings and Policy name a hooks.json, a Claude Code settings.json and a policy
	// file, relative to the scenario file; none means the machine's layers and the defaults.
	Config    []string   `yaml:"config"`
	Settings  []string   `yaml:"settings"`
	Policy    string     `yaml:"policy"`
	Scenarios []Scenario `yaml:"scenarios"`
}

// Scenario is one event and what is expected of it.
type Scenario struct {
	Name    string `yaml:"name"`
	Agent   string `yaml:"agent"`
	Event   string `yaml:"event"`
	Payload any    `yaml:"payload"`
	Expect  Expect `yaml:"expect"`
	Line    int    `yaml:"-"`
}

// Expect is the expected outcome; messages are matched as substrings.
type Expect struct {
	Decision     string `yaml:"decision"`
	UserMessage  string `yaml:"user_message"`
	AgentMessage string `yaml:"agent_message"`
	Followup     string `yaml:"followup_message"`
	Reason       string `yaml:"reason"`
}

// Parse reads a scenario file; name is used in errors.
func Parse(name string, data []byte) (f *File, err error) {
	if len(data) > MaxFileSize {
		return nil, fmt.Errorf("%s: %d bytes, more than the limit of %d", name, len(data), MaxFileSize)
	}
	defer func() { // the YAML library must not crash the tool on a hostile file
		if r := recover(); r != nil {
			f, err = nil, fmt.Errorf("%s: the YAML decoder failed on this file: %v", name, r)
		}
	}()
	f = &File{}
	if err := yaml.UnmarshalWithOptions(data, f, yaml.DisallowUnknownField()); err != nil {
		var ye yaml.Error
		if errors.As(err, &ye) && ye.GetToken() != nil {
			return nil, fmt.Errorf("%s:%d:%d: %s", name, ye.GetToken().Position.Line, ye.GetToken().Position.Column, ye.GetMessage())
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var problems []string
	for i := range f.Scenarios {
		s := &f.Scenarios[i]
		where := fmt.Sprintf("%s: scenario %d", name, i+1)
		if s.Name != "" {
			where += " (" + s.Name + ")"
		}
		if s.Agent == "" {
			s.Agent = string(agents.Default().Name)
		}
		if _, ok := agents.Lookup(s.Agent); !ok {
			problems = append(problems, where+": agent must be "+agents.List("or"))
		}
		if s.Event == "" {
			problems = append(problems, where+": event is required")
		}
		switch s.Expect.Decision {
		case "allow", "ask", "deny", "defer", "none":
		default:
			problems = append(problems, where+": expect.decision must be allow, ask, deny, defer or none")
		}
		if s.Payload == nil {
			s.Payload = map[string]any{}
		}
		if _, ok := s.Payload.(map[string]any); !ok {
			if str, isStr := s.Payload.(string); !isStr || !json.Valid([]byte(str)) {
				problems = append(problems, where+": payload must be an object (or a JSON string of one)")
			}
		}
	}
	if len(f.Scenarios) == 0 {
		problems = append(problems, name+": no scenarios")
	}
	if len(problems) > 0 {
		return nil, errors.New(strings.Join(problems, "\n"))
	}
	return f, nil
}

// PayloadJSON returns the scenario's payload as JSON.
func (s *Scenario) PayloadJSON() ([]byte, error) {
	if str, ok := s.Payload.(string); ok {
		return []byte(str), nil
	}
	return json.Marshal(normalize(s.Payload))
}

// normalize turns YAML's map[string]any trees into JSON-encodable values.
func normalize(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = normalize(e)
		}
		return out
	case map[any]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[fmt.Sprint(k)] = normalize(e)
		}
		return out
	case []any:
		for i := range x {
			x[i] = normalize(x[i])
		}
	}
	return v
}

// Check compares an outcome with the expectation and lists the differences.
func (e Expect) Check(decision, userMessage, agentMessage, followup, reason string) []string {
	var diffs []string
	if decision != e.Decision {
		diffs = append(diffs, fmt.Sprintf("decision: want %s, got %s", e.Decision, decision))
	}
	for _, c := range []struct{ field, want, got string }{{"user_message", e.UserMessage, userMessage},
		{"agent_message", e.AgentMessage, agentMessage}, {"followup_message", e.Followup, followup}, {"reason", e.Reason, reason}} {
		if c.want != "" && !strings.Contains(c.got, c.want) {
			diffs = append(diffs, fmt.Sprintf("%s: want it to contain %q, got %q", c.field, c.want, c.got))
		}
	}
	return diffs
}
