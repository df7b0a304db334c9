package dialect

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// MaxResponseDepth bounds the nesting of a hook's JSON answer.
const MaxResponseDepth = 64

// DecodeJSON decodes one JSON value from a hook, keeping numbers exact and bounding the depth;
// anything after the value is an error.
func DecodeJSON(b []byte) (any, error) {
	if err := CheckDepth(b, MaxResponseDepth); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("unexpected data after the JSON value at offset %d", dec.InputOffset())
	}
	return v, nil
}

// CheckDepth rejects JSON nested deeper than max, counting brackets outside strings, before a
// decoder spends memory on it.
func CheckDepth(b []byte, max int) error {
	depth, inStr, esc := 0, false, false
	for _, c := range b {
		switch {
		case inStr && esc:
			esc = false
		case inStr && c == '\\':
			esc = true
		case inStr && c == '"':
			inStr = false
		case inStr:
		case c == '"':
			inStr = true
		case c == '{' || c == '[':
			if depth++; depth > max {
				return fmt.Errorf("nested more than %d levels deep", max)
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return nil
}

// Marshal encodes v as compact JSON without HTML escaping (hooks' answers are not HTML).
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}
