// Package junit writes test results as the JUnit XML that CI systems read. It writes it by
// hand: encoding/xml would add its initialisation to every start of agenthooks, the guard's
// included, for a file that only `agenthooks test --junit` writes.
package junit

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Suite is one <testsuite>: its name and its cases, in order.
type Suite struct {
	Name  string
	Cases []Case
}

// Case is one <testcase>. Failure is nil when it passed.
type Case struct {
	Name, Classname string
	Seconds         float64
	Failure         *Failure
}

// Failure is a failed case's <failure>: a one-line message and the full text.
type Failure struct {
	Message, Text string
}

// Marshal is the document, byte for byte what encoding/xml's MarshalIndent(doc, "", "  ") gave
// after xml.Header, with a final newline.
func Marshal(suites []Suite) []byte {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n<testsuites>")
	for _, s := range suites {
		failures := 0
		for _, c := range s.Cases {
			if c.Failure != nil {
				failures++
			}
		}
		b.WriteString("\n  <testsuite name=\"")
		escape(&b, s.Name)
		b.WriteString(`" tests="` + strconv.Itoa(len(s.Cases)) + `" failures="` + strconv.Itoa(failures) + `">`)
		for _, c := range s.Cases {
			b.WriteString("\n    <testcase name=\"")
			escape(&b, c.Name)
			b.WriteString(`" classname="`)
			escape(&b, c.Classname)
			b.WriteString(`" time="` + strconv.FormatFloat(c.Seconds, 'f', 3, 64) + `">`)
			if f := c.Failure; f != nil {
				b.WriteString("\n      <failure message=\"")
				escape(&b, f.Message)
				b.WriteString(`">`)
				escape(&b, f.Text)
				b.WriteString("</failure>\n    ")
			}
			b.WriteString("</testcase>")
		}
		if len(s.Cases) > 0 {
			b.WriteString("\n  ")
		}
		b.WriteString("</testsuite>")
	}
	if len(suites) > 0 {
		b.WriteString("\n")
	}
	b.WriteString("</testsuites>\n")
	return []byte(b.String())
}

// escape writes s as encoding/xml escapes attribute values and character data: the five markup
// characters, tab, newline and carriage return as references, and what XML cannot hold
// (invalid UTF-8, control characters) as U+FFFD.
func escape(b *strings.Builder, s string) {
	last := 0
	for i := 0; i < len(s); {
		r, width := utf8.DecodeRuneInString(s[i:])
		i += width
		var esc string
		switch r {
		case '"':
			esc = "&#34;"
		case '\'':
			esc = "&#39;"
		case '&':
			esc = "&amp;"
		case '<':
			esc = "&lt;"
		case '>':
			esc = "&gt;"
		case '\t':
			esc = "&#x9;"
		case '\n':
			esc = "&#xA;"
		case '\r':
			esc = "&#xD;"
		default:
			if inRange(r) && (r != utf8.RuneError || width != 1) {
				continue
			}
			esc = "\uFFFD"
		}
		b.WriteString(s[last : i-width])
		b.WriteString(esc)
		last = i
	}
	b.WriteString(s[last:])
}

// inRange reports whether XML 1.0 can hold r (its Char production).
func inRange(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D || r >= 0x20 && r <= 0xD7FF ||
		r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF
}
