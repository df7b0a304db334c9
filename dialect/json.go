package dialect

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
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

// JSONError rewrites an error of encoding/json decoding data as plain words for a person: which
// field (its JSON path) holds what, what was expected there, and where (line and column). what
// names the document ("payload"). Other errors are returned as they are.
func JSONError(what string, data []byte, err error) error {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case len(bytes.TrimSpace(data)) == 0:
		return fmt.Errorf("%s is empty: a JSON object was expected", what)
	case errors.As(err, &te):
		got, _, _ := strings.Cut(te.Value, " ") // "number -5" → "number"
		want := jsonKind(te.Type)
		line, col := lineCol(data, te.Offset)
		if te.Field == "" {
			return fmt.Errorf("%s must be %s, not %s (line %d, column %d)", what, want, article(got), line, col)
		}
		return fmt.Errorf("%s: field %q must be %s, not %s (line %d, column %d)", what, te.Field, want, article(got), line, col)
	case errors.As(err, &se):
		line, col := lineCol(data, se.Offset)
		return fmt.Errorf("%s is not valid JSON: %s (line %d, column %d)", what, strings.TrimPrefix(se.Error(), "json: "), line, col)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("%s is not valid JSON: it ends early", what)
	}
	return err
}

// jsonKind names the JSON value a Go type takes.
func jsonKind(t reflect.Type) string {
	if t == nil {
		return "a JSON value"
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8,
		reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.String {
			return "an array of strings"
		}
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.Pointer:
		return jsonKind(t.Elem())
	}
	return "a JSON value"
}

func article(kind string) string {
	switch kind {
	case "array", "object":
		return "an " + kind
	case "bool":
		return "a boolean"
	case "":
		return "this value"
	}
	return "a " + kind
}

// lineCol turns the offset of a decoding error, which encoding/json gives as the number of
// bytes read when it failed, into the 1-based line and column of the last byte read: the
// offending character, the bracket of an array or object, or the end of a literal.
func lineCol(data []byte, off int64) (line, col int) {
	off--
	if off < 0 {
		off = 0
	}
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	before := data[:off]
	line = bytes.Count(before, []byte("\n")) + 1
	col = int(off) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}

// StripJSONComments blanks // and /* */ comments outside strings, as JSONC settings files (Gemini
// CLI's, Factory Droid's) may have them. Offsets are kept, so a decode error's offset is the file's.
func StripJSONComments(data []byte) []byte {
	out := slices.Clone(data)
	inString := false
	for i := 0; i < len(out); i++ {
		c := out[i]
		switch {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case !inString && c == '/' && i+1 < len(out) && out[i+1] == '/':
			for ; i < len(out) && out[i] != '\n'; i++ {
				out[i] = ' '
			}
		case !inString && c == '/' && i+1 < len(out) && out[i+1] == '*':
			out[i], out[i+1] = ' ', ' '
			for i += 2; i < len(out) && !(out[i] == '*' && i+1 < len(out) && out[i+1] == '/'); i++ {
				if out[i] != '\n' {
					out[i] = ' '
				}
			}
			if i+1 < len(out) {
				out[i], out[i+1] = ' ', ' '
				i++
			}
		}
	}
	return out
}

// DecodePayload decodes a hook's payload, which must be one JSON object: the agents' packages
// read theirs with it, so that a bad one is the same positioned error whichever agent sent it.
func DecodePayload(payload []byte) (map[string]any, error) {
	v, err := DecodeJSON(payload)
	if err != nil {
		return nil, JSONError("payload", payload, err)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("payload must be a JSON object")
	}
	return m, nil
}
