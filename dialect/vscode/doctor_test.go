package vscode

import (
	"strings"
	"testing"
)

// TestUseHooksOff: chat.useHooks false is found in VS Code's JSONC settings, with its line,
// whether written as the dotted key or in a "chat" object; true, absent or unreadable is not.
func TestUseHooksOff(t *testing.T) {
	for _, c := range []struct {
		text string
		line int
		off  bool
	}{
		{"{\n  // comment, \"chat.useHooks\": false\n  \"chat.useHooks\": false,\n}", 3, true},
		{"{\"a\": [1, 2,], /* x */ \"chat\": {\"useHooks\": false,},}", 1, true},
		{`{"chat.useHooks": true}`, 0, false},
		{`{"chat.useHooks": "false"}`, 0, false},
		{`{"x": "chat.useHooks\": false, ,}"}`, 0, false},
		{`{"chat.useHooks": false`, 0, false}, // VS Code cannot read it either
		{``, 0, false},
	} {
		line, off := useHooksOff([]byte(c.text))
		if line != c.line || off != c.off {
			t.Errorf("%q: line %d, off %v; want %d, %v", c.text, line, off, c.line, c.off)
		}
	}
}

func FuzzUseHooksOff(f *testing.F) {
	for _, s := range []string{`{"chat.useHooks": false,}`, "{\"chat\":{\"useHooks\":false}} // x", `{"a":"\",}"}`, "/*", `"\`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		line, off := useHooksOff(data)
		if off && (line < 1 || line > 1+strings.Count(string(data), "\n")) {
			t.Fatalf("line %d outside the text", line)
		}
	})
}
