// Package srcpos holds source positions and the lists of positioned problems that config and
// policy validation report. It imports nothing from agenthooks.
package srcpos

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Pos is a place in a file: 1-based line and column (in characters), and the byte offset.
type Pos struct {
	File   string `json:"file"`
	Line   int    `json:"line,omitempty"`
	Col    int    `json:"col,omitempty"`
	Offset int    `json:"-"`
}

// String prints file:line:col, leaving out what is unknown.
func (p Pos) String() string {
	switch {
	case p.Line == 0:
		return p.File
	case p.Col == 0:
		return fmt.Sprintf("%s:%d", p.File, p.Line)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// At returns the position of byte offset off in src, which was read from file.
func At(file string, src []byte, off int) Pos {
	if off < 0 {
		off = 0
	}
	if off > len(src) {
		off = len(src)
	}
	before := src[:off]
	line := bytes.Count(before, []byte{'\n'}) + 1
	start := bytes.LastIndexByte(before, '\n') + 1
	return Pos{File: file, Line: line, Col: utf8.RuneCount(before[start:]) + 1, Offset: off}
}

// Severity says whether a problem stops a file from being used.
type Severity string

// The severities.
const (
	Error   Severity = "error"
	Warning Severity = "warning"
)

// Problem is one finding about a file, with a stable code for tools.
type Problem struct {
	Pos
	Severity Severity `json:"severity"`
	Code     string   `json:"code"`
	Message  string   `json:"message"`
}

// String prints "file:line:col: message", with "warning: " before the message of a warning.
func (p Problem) String() string {
	if p.Severity == Warning {
		return p.Pos.String() + ": warning: " + p.Message
	}
	return p.Pos.String() + ": " + p.Message
}

// List is an ordered list of problems.
type List []Problem

// Add appends a problem.
func (l *List) Add(pos Pos, sev Severity, code, msg string) {
	*l = append(*l, Problem{Pos: pos, Severity: sev, Code: code, Message: msg})
}

// HasErrors reports whether any problem is an error.
func (l List) HasErrors() bool {
	for _, p := range l {
		if p.Severity == Error {
			return true
		}
	}
	return false
}

// Errors returns only the errors.
func (l List) Errors() List {
	var out List
	for _, p := range l {
		if p.Severity == Error {
			out = append(out, p)
		}
	}
	return out
}

// Err returns the errors as one error, or nil when there are none.
func (l List) Err() error {
	errs := l.Errors()
	if len(errs) == 0 {
		return nil
	}
	return &ListError{List: errs}
}

// ListError is an error made of problems; its text has one problem a line.
type ListError struct{ List List }

func (e *ListError) Error() string {
	lines := make([]string, len(e.List))
	for i, p := range e.List {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// AsList extracts the problems from an error made by Err, or nil.
func AsList(err error) List {
	var le *ListError
	if errors.As(err, &le) {
		return le.List
	}
	return nil
}
