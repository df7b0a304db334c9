package cli

import (
	"bytes"
	"encoding/json"
	"io"
	"slices"
	"strings"
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
func (pl *shellPayload) decode(data []byte) error {
	fast := *pl
	// json decodes a list into the slice's own array: a reading that then fails must not have
	// written into the one pl keeps
	fast.WorkspaceRoots = slices.Clone(pl.WorkspaceRoots)
	if fast.decodeKeys(data) {
		*pl = fast
		return nil
	}
	return json.Unmarshal(data, pl)
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
