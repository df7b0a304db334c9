package cli

import (
	"bytes"
	"encoding/json"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// decode decodes a payload into pl exactly as json.Unmarshal does, the fields and the error
// alike, but without building encoding/json's description of a struct of twenty fields, which
// each guard and runner process would build for its one payload (0.16M of the guard process's
// 1.7M instructions): the object's keys are read in turn and each value decoded into its field.
// What this reading does not take exactly as Unmarshal would (JSON that is not valid, a value
// of another type than its field's, a key that names a field only when case is ignored, data
// after the object) goes to Unmarshal itself, which decodes it and words the error.
// As with Unmarshal, a field the payload does not name keeps the value it had (guardView decodes
// an agent's view of the payload over the payload). FuzzShellPayloadDecode checks both give the
// same for any input.
//
// Before that, scanKeys reads the common payload (strings with no \u escape, numbers, objects,
// no workspace_roots) without encoding/json at all.
func (pl *shellPayload) decode(data []byte) error {
	fast := *pl
	if fast.scanKeys(data) {
		*pl = fast
		return nil
	}
	fast = *pl
	// json decodes a list into the slice's own array: a reading that then fails must not have
	// written into the one pl keeps
	fast.WorkspaceRoots = slices.Clone(pl.WorkspaceRoots)
	if fast.decodeKeys(data) {
		*pl = fast
		return nil
	}
	return json.Unmarshal(data, pl)
}

// scanKeys is decode's first reading, by hand: false for anything it does not take exactly as
// Unmarshal would, which decodeKeys then reads. It takes an object whose keys name fields
// exactly or no field at all; a string field's value a string or null (which leaves the field
// as it was); an any field's value any JSON value, as Unmarshal gives it (map[string]any,
// []any, float64, bool, nil); strings without \u escapes and with valid UTF-8; nesting up to
// a depth of 64. A list into workspace_roots, which Unmarshal decodes into the slice's own
// array, is left to decodeKeys. pl may be written before false is returned: decode passes a
// copy.
func (pl *shellPayload) scanKeys(data []byte) bool {
	s := jsonScan{data: data}
	if !s.next('{') {
		return false
	}
	if s.next('}') {
		return s.end()
	}
	for {
		key, ok := s.str()
		if !ok || !s.next(':') {
			return false
		}
		switch dst := pl.field(key).(type) {
		case *string:
			if s.null() {
				break // Unmarshal leaves the field as it was
			}
			if *dst, ok = s.str(); !ok {
				return false
			}
		case *any:
			if *dst, ok = s.value(0, true); !ok {
				return false
			}
		case nil:
			if pl.foldsToField(key) {
				return false // Unmarshal would decode it into that field
			}
			if _, ok = s.value(0, false); !ok {
				return false
			}
		default: // workspace_roots
			return false
		}
		if s.next('}') {
			return s.end()
		}
		if !s.next(',') {
			return false
		}
	}
}

// jsonScan reads JSON text for scanKeys.
type jsonScan struct {
	data []byte
	i    int
}

// space passes over white space.
func (s *jsonScan) space() {
	for s.i < len(s.data) {
		switch s.data[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// next passes over white space and c, and reports whether c was there.
func (s *jsonScan) next(c byte) bool {
	s.space()
	if s.i < len(s.data) && s.data[s.i] == c {
		s.i++
		return true
	}
	return false
}

// end reports whether nothing but white space follows.
func (s *jsonScan) end() bool {
	s.space()
	return s.i == len(s.data)
}

// null passes over a null and reports whether it was there.
func (s *jsonScan) null() bool { return s.word("null") }

// word passes over white space and w, and reports whether w was there.
func (s *jsonScan) word(w string) bool {
	s.space()
	if len(s.data)-s.i >= len(w) && string(s.data[s.i:s.i+len(w)]) == w {
		s.i += len(w)
		return true
	}
	return false
}

// str reads a string; false for one with a \u escape, a control character, invalid UTF-8 or no end.
func (s *jsonScan) str() (string, bool) {
	if !s.next('"') {
		return "", false
	}
	start, plain := s.i, true
	var b []byte
	for ; s.i < len(s.data); s.i++ {
		c := s.data[s.i]
		switch {
		case c == '"':
			raw := s.data[start:s.i]
			s.i++
			if !utf8.Valid(raw) {
				return "", false // Unmarshal writes U+FFFD for each bad byte
			}
			if plain {
				return string(raw), true
			}
			return string(b), true
		case c < 0x20:
			return "", false
		case c == '\\':
			if plain {
				b, plain = append(b, s.data[start:s.i]...), false
			}
			if s.i++; s.i == len(s.data) {
				return "", false
			}
			switch e := s.data[s.i]; e {
			case '"', '\\', '/':
				b = append(b, e)
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			default: // \u, or not an escape
				return "", false
			}
		default:
			if !plain {
				b = append(b, c)
			}
		}
	}
	return "", false
}

// value reads any JSON value as Unmarshal decodes it into an any, built only when keep is set.
func (s *jsonScan) value(depth int, keep bool) (any, bool) {
	if depth > 64 {
		return nil, false
	}
	s.space()
	if s.i == len(s.data) {
		return nil, false
	}
	switch c := s.data[s.i]; {
	case c == '"':
		return s.str()
	case c == '{':
		s.i++
		var m map[string]any
		if keep {
			m = map[string]any{}
		}
		if s.next('}') {
			return m, true
		}
		for {
			k, ok := s.str()
			if !ok || !s.next(':') {
				return nil, false
			}
			v, ok := s.value(depth+1, keep)
			if !ok {
				return nil, false
			}
			if keep {
				m[k] = v
			}
			if s.next('}') {
				return m, true
			}
			if !s.next(',') {
				return nil, false
			}
		}
	case c == '[':
		s.i++
		var list []any
		if keep {
			list = []any{}
		}
		if s.next(']') {
			return list, true
		}
		for {
			v, ok := s.value(depth+1, keep)
			if !ok {
				return nil, false
			}
			if keep {
				list = append(list, v)
			}
			if s.next(']') {
				return list, true
			}
			if !s.next(',') {
				return nil, false
			}
		}
	case c == 't' && s.word("true"):
		return true, true
	case c == 'f' && s.word("false"):
		return false, true
	case c == 'n' && s.word("null"):
		return nil, true
	case c == '-' || c >= '0' && c <= '9':
		return s.number()
	}
	return nil, false
}

// number reads a number as Unmarshal decodes it into an any: a float64; false for text that is
// not a JSON number or one a float64 cannot hold.
func (s *jsonScan) number() (any, bool) {
	start := s.i
	digits := func() int {
		n := 0
		for s.i < len(s.data) && s.data[s.i] >= '0' && s.data[s.i] <= '9' {
			s.i++
			n++
		}
		return n
	}
	if s.data[s.i] == '-' {
		s.i++
	}
	switch n := digits(); {
	case n == 0, n > 1 && s.data[s.i-n] == '0':
		return nil, false // no digits, or a leading zero
	}
	if s.i < len(s.data) && s.data[s.i] == '.' {
		s.i++
		if digits() == 0 {
			return nil, false
		}
	}
	if s.i < len(s.data) && (s.data[s.i] == 'e' || s.data[s.i] == 'E') {
		s.i++
		if s.i < len(s.data) && (s.data[s.i] == '+' || s.data[s.i] == '-') {
			s.i++
		}
		if digits() == 0 {
			return nil, false
		}
	}
	f, err := strconv.ParseFloat(string(s.data[start:s.i]), 64)
	return f, err == nil
}

// decodeKeys is decode's own reading; false when Unmarshal must decide.
func (pl *shellPayload) decodeKeys(data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return false
	}
	for dec.More() {
		t, err := dec.Token()
		key, isKey := t.(string)
		if err != nil || !isKey {
			return false
		}
		dst := pl.field(key)
		if dst == nil {
			if pl.foldsToField(key) {
				return false // Unmarshal would decode it into that field
			}
			dst = new(json.RawMessage) // a field the guard does not read: checked, then dropped
		}
		if dec.Decode(dst) != nil {
			return false
		}
	}
	if t, err := dec.Token(); err != nil || t != json.Delim('}') {
		return false
	}
	_, err := dec.Token()
	return err == io.EOF // nothing after the object but white space
}

// field is the field of the payload's key, as its json tag names it; nil for any other key.
func (pl *shellPayload) field(key string) any {
	switch key {
	case "hook_event_name":
		return &pl.HookEventName
	case "event":
		return &pl.Event
	case "command":
		return &pl.Command
	case "cwd":
		return &pl.Cwd
	case "tool_name":
		return &pl.ToolName
	case "tool_input":
		return &pl.ToolInput
	case "workspace_roots":
		return &pl.WorkspaceRoots
	case "turn_id":
		return &pl.TurnID
	case "timestamp":
		return &pl.Timestamp
	case "sessionId":
		return &pl.SessionIDCamel
	case "toolName":
		return &pl.ToolNameCamel
	case "session_id":
		return &pl.SessionID
	case "conversation_id":
		return &pl.ConversationID
	case "agent_action_name":
		return &pl.ActionName
	case "toolCall":
		return &pl.ToolCall
	case "hookName":
		return &pl.HookName
	case "hookEventName":
		return &pl.HookEventCamel
	case "permission_mode":
		return &pl.PermissionMode
	case "client_type":
		return &pl.ClientType
	}
	return nil
}

// shellPayloadKeys are field's keys (TestShellPayloadKeys checks them against the json tags).
var shellPayloadKeys = [...]string{"hook_event_name", "event", "command", "cwd", "tool_name", "tool_input",
	"workspace_roots", "turn_id", "timestamp", "sessionId", "toolName", "session_id", "conversation_id",
	"agent_action_name", "toolCall", "hookName", "hookEventName", "permission_mode", "client_type"}

// foldsToField reports whether a key that names no field exactly names one when case is
// ignored, as Unmarshal matches a key it finds no exact field for.
func (pl *shellPayload) foldsToField(key string) bool {
	for _, k := range shellPayloadKeys {
		if strings.EqualFold(k, key) {
			return true
		}
	}
	return false
}
