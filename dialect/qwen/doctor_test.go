package qwen

import (
	"strings"
	"testing"
)

// TestDotenv: QWEN_HOME is read from a .env file in the forms Qwen Code reads (KEY=value,
// export, quotes, KEY: value, a comment), the last assignment winning, with its line.
func TestDotenv(t *testing.T) {
	for _, c := range []struct {
		text, want string
		line       int
	}{
		{"QWEN_HOME=/a\n", "/a", 1},
		{"# c\nexport QWEN_HOME='/b c' # x\n", "/b c", 2},
		{"QWEN_HOME: ~/d\r\nQWEN_HOME=/e", "/e", 2},
		{"QWEN_HOMEX=/f\nOTHER=QWEN_HOME=/g", "", 0},
		{"QWEN_HOME=/h # note", "/h", 1},
	} {
		v, line := dotenv([]byte(c.text), "QWEN_HOME")
		if v != c.want || line != c.line {
			t.Errorf("%q: %q at %d, want %q at %d", c.text, v, line, c.want, c.line)
		}
	}
}

func FuzzDotenv(f *testing.F) {
	for _, s := range []string{"QWEN_HOME=/a", "export QWEN_HOME=\"x", "QWEN_HOME:'", "\uFEFFQWEN_HOME= # c"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, line := dotenv(data, "QWEN_HOME")
		if line < 0 || line > 1+strings.Count(string(data), "\n") || v != "" && line == 0 {
			t.Fatalf("%q at line %d", v, line)
		}
	})
}
