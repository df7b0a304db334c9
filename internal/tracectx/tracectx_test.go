package tracectx

import (
	"errors"
	"strings"
	"testing"
)

const example = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01" // the specification's own

func TestParseExample(t *testing.T) {
	p, err := Parse(example)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.TraceID.String(); got != "4bf92f3577b34da6a3ce929d0e0e4736" {
		t.Errorf("trace id %s", got)
	}
	if got := p.SpanID.String(); got != "00f067aa0ba902b7" {
		t.Errorf("span id %s", got)
	}
	if p.Flags != Sampled {
		t.Errorf("flags %02x", p.Flags)
	}
	if p.String() != example {
		t.Errorf("String() = %s, want %s", p.String(), example)
	}
}

func TestParseLaterVersion(t *testing.T) {
	// A later version may append fields; its first four are read as version 00's.
	p, err := Parse("cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00-what-comes-next")
	if err != nil {
		t.Fatal(err)
	}
	if p.TraceID.String() != "4bf92f3577b34da6a3ce929d0e0e4736" || p.Flags != 0 {
		t.Errorf("got %+v", p)
	}
	if p.String() != "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00" {
		t.Errorf("re-encoded as %s", p.String())
	}
}

func TestParseRefuses(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		offset   int
		msg      string
	}{
		{"empty", "", 0, "0 bytes"},
		{"short", example[:54], 54, "54 bytes"},
		{"version ff", "ff" + example[2:], 0, "version ff"},
		{"version 00 longer", example + "-x", 55, "version 00 is 55 bytes"},
		{"later version without dash", "01" + example[2:] + "x", 55, "continues with '-'"},
		{"upper-case hex", strings.ToUpper(example[:10]) + example[10:], 4, "lower-case hex"},
		{"bad version digit", "0g" + example[2:], 1, "lower-case hex"},
		{"bad separator", example[:2] + "_" + example[3:], 2, "separates"},
		{"bad second separator", example[:35] + "." + example[36:], 35, "separates"},
		{"bad third separator", example[:52] + " " + example[53:], 52, "separates"},
		{"bad span digit", example[:40] + "z" + example[41:], 40, "lower-case hex"},
		{"bad flags", example[:54] + "G", 54, "lower-case hex"},
		{"zero trace id", "00-00000000000000000000000000000000-00f067aa0ba902b7-01", 3, "trace id is all zeros"},
		{"zero span id", "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01", 36, "parent id is all zeros"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(tc.in)
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("Parse(%q) = %v, want an *Error", tc.in, err)
			}
			if pe.Offset != tc.offset || !strings.Contains(pe.Msg, tc.msg) {
				t.Errorf("Parse(%q): %v; want offset %d and %q", tc.in, err, tc.offset, tc.msg)
			}
		})
	}
}

func TestChildKeepsTraceAndFlags(t *testing.T) {
	p, _ := Parse(example)
	c := p.Child()
	if c.TraceID != p.TraceID || c.Flags != p.Flags {
		t.Errorf("child %s of %s changed the trace or flags", c, p)
	}
	if c.SpanID == p.SpanID || !c.SpanID.IsValid() {
		t.Errorf("child span id %s", c.SpanID)
	}
	if back, err := Parse(c.String()); err != nil || back != c {
		t.Errorf("child %s does not parse back: %v", c, err)
	}
}

func TestNewIDsAreValidAndDistinct(t *testing.T) {
	seen := map[TraceID]bool{}
	for range 1000 {
		p := New()
		if !p.TraceID.IsValid() || !p.SpanID.IsValid() || p.Flags != Sampled {
			t.Fatalf("New() = %+v", p)
		}
		if seen[p.TraceID] {
			t.Fatalf("trace id %s repeated", p.TraceID)
		}
		seen[p.TraceID] = true
	}
}

func TestParseIDs(t *testing.T) {
	if id, err := ParseTraceID("4bf92f3577b34da6a3ce929d0e0e4736"); err != nil || id.String() != "4bf92f3577b34da6a3ce929d0e0e4736" {
		t.Errorf("ParseTraceID: %v %v", id, err)
	}
	if id, err := ParseSpanID("00f067aa0ba902b7"); err != nil || id.String() != "00f067aa0ba902b7" {
		t.Errorf("ParseSpanID: %v %v", id, err)
	}
	for _, bad := range []string{"", "00f067aa0ba902b", "00F067AA0BA902B7", "00f067aa0ba902b7a"} {
		if _, err := ParseSpanID(bad); err == nil {
			t.Errorf("ParseSpanID(%q) accepted", bad)
		}
	}
	if _, err := ParseTraceID("4bf92f3577b34da6"); err == nil {
		t.Error("ParseTraceID accepted 16 digits")
	}
}

// FuzzParse: any input is refused with an *Error or parsed into a value that formats back to
// itself (its first four fields, as version 00); it never panics.
func FuzzParse(f *testing.F) {
	f.Add(example)
	f.Add("cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00-more")
	f.Add("ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
	f.Add("00-00000000000000000000000000000000-00f067aa0ba902b7-01")
	f.Add("00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01")
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		p, err := Parse(s)
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) || pe.Offset < 0 || pe.Offset > len(s) {
				t.Fatalf("Parse(%q): %v", s, err)
			}
			return
		}
		out := p.String()
		if out[3:52] != s[3:52] || out[53:55] != s[53:55] {
			t.Fatalf("Parse(%q).String() = %q", s, out)
		}
		if again, err := Parse(out); err != nil || again != p {
			t.Fatalf("%q does not parse back: %v", out, err)
		}
	})
}

func BenchmarkParse(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(example); err != nil {
			b.Fatal(err)
		}
	}
}
