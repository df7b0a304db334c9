package config

import (
	"sort"

	"github.com/agenthooks/agenthooks/internal/jsonpos"
)

// DecodeBareSettings validates a hooks file that is a bare map of events in Claude Code's
// matcher-group shape (Factory Droid's hooks.json: {"PreToolUse": [{"matcher": ..., "hooks":
// [...]}]}), as DecodeSettings validates the "hooks" of a settings.json.
func DecodeBareSettings(src Source, data []byte) *File {
	f := &File{Source: src}
	d := &decoder{src: data, file: f}
	if len(data) > MaxFileSize {
		d.errorf(0, CodeRead, "hooks file is %d bytes, more than the limit of %d", len(data), MaxFileSize)
		return f
	}
	root, err := jsonpos.Parse(data, MaxDepth)
	if err != nil {
		off := 0
		if se, ok := err.(*jsonpos.SyntaxError); ok {
			off = se.Off
		}
		d.errorf(off, CodeSyntax, "invalid JSON: %s", err.Error())
		return f
	}
	d.settingsHooks(root)
	sort.SliceStable(f.Problems, func(i, j int) bool { return f.Problems[i].Offset < f.Problems[j].Offset })
	f.Usable = !hasStructuralErrors(f.Problems)
	return f
}
