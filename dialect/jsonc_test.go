package dialect

import (
	"strings"
	"testing"
)

// TestStripJSONComments: comments go, strings that look like them stay, offsets are kept.
func TestStripJSONComments(t *testing.T) {
	in := `{"a": "http://x/*y*/", // c
/* multi
line */ "b": "\"//"}`
	out := string(StripJSONComments([]byte(in)))
	if len(out) != len(in) || !strings.Contains(out, `"http://x/*y*/"`) || strings.Contains(out, "// c") || strings.Contains(out, "multi") || !strings.Contains(out, `"\"//"`) {
		t.Errorf("got %q", out)
	}
}
