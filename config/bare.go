package config

import (
	"errors"
	"sort"

	"github.com/agenthooks/agenthooks/internal/jsonpos"
)

// DecodeBareSettings validates a hooks file that is a bare map of events in Claude Code's
// matcher-group shape (Factory Droid's hooks.json: {"PreToolUse": [{"matcher": ..., "hooks":
// [...]}]}), as DecodeSettings validates the "hooks" of a settings.json.
func DecodeBareSettings(src Source, data []byte) *File {
	f := &File{Source: src}
	d := &decoder{src: data, file: f}
	root, off, err := jsonpos.ParseLimited(data, MaxFileSize, MaxDepth)
	if tl := (*jsonpos.TooLargeError)(nil); errors.As(err, &tl) {
		d.errorf(off, CodeRead, "hooks file is %v", err)
		return f
	} else if err != nil {
		d.errorf(off, CodeSyntax, "invalid JSON: %v", err)
		return f
	}
	d.settingsHooks(root)
	sort.SliceStable(f.Problems, func(i, j int) bool { return f.Problems[i].Offset < f.Problems[j].Offset })
	f.Usable = !hasStructuralErrors(f.Problems)
	return f
}
