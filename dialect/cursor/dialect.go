package cursor

import (
	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
)

// Dialect is Cursor's hooks dialect for the engine.
var Dialect dialect.Dialect = impl{}

type impl struct{}

func (impl) Name() dialect.Name { return dialect.Cursor }

func (impl) Lookup(name string) (*dialect.Spec, bool) {
	e, ok := Lookup(name)
	if !ok {
		return nil, false
	}
	return &e.Spec, true
}

func (impl) Names() []string { return Names() }

func (impl) Interpret(s *dialect.Spec, exitCode int, stdout, stderr []byte, cut int64) dialect.Outcome {
	e, _ := Lookup(s.Name)
	return Interpret(e, exitCode, stdout, stderr, cut)
}

// Encode writes Cursor's JSON on stdout with exit status 0: Cursor reads the answer from JSON.
func (impl) Encode(s *dialect.Spec, d decide.Decision) dialect.Reply {
	e, _ := Lookup(s.Name)
	return dialect.Reply{Stdout: append(Encode(e, d), '\n')}
}

func (impl) Messages(s *dialect.Spec, d decide.Decision) (string, string) {
	e, _ := Lookup(s.Name)
	return Messages(e, d)
}
