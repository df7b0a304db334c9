package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/agenthooks/agenthooks/internal/jsonpos"
	"github.com/agenthooks/agenthooks/internal/srcpos"
)

// DecodeCodexTOML reads the inline `[hooks]` tables of a Codex config.toml, which have the
// shape of Codex's hooks.json ([[hooks.PreToolUse]] with matcher and [[hooks.PreToolUse.hooks]]
// handlers). The rest of the file is Codex's own business. A TOML syntax error is reported at
// its line and column; a problem in the hooks names the file and the TOML key path, since the
// hooks are checked as the JSON they stand for.
func DecodeCodexTOML(src Source, data []byte) *File {
	f := &File{Source: src, Usable: true}
	doc, ok := decodeTOML(f, data)
	if !ok {
		return f
	}
	hooks, ok := doc["hooks"]
	if !ok {
		return f // no inline hooks: nothing of agenthooks' business
	}
	if m, isMap := hooks.(map[string]any); isMap {
		delete(m, "state") // Codex's per-hook trust records (hooks.state.<key>.trusted_hash)
	}
	js, err := json.Marshal(map[string]any{"hooks": hooks})
	if err != nil {
		f.Problems.Add(srcpos.Pos{File: src.File}, srcpos.Error, CodeHooks, "[hooks] cannot be read: "+err.Error())
		f.Usable = false
		return f
	}
	decoded := DecodeSettings(src, js)
	// Positions in the JSON the hooks stand for mean nothing to the user: name the TOML path.
	var problems srcpos.List
	for _, p := range decoded.Problems {
		problems.Add(srcpos.Pos{File: src.File}, p.Severity, p.Code, "[hooks] "+tomlPath(js, p.Offset)+": "+p.Message)
	}
	decoded.Problems = problems
	for _, h := range decoded.Hooks {
		h.Pos = srcpos.Pos{File: src.File}
	}
	return decoded
}

// tomlPath names, as a TOML key path, where in the JSON rendering of [hooks] the byte at off
// is: at each level, the last member or element that starts at or before it.
func tomlPath(js []byte, off int) string {
	root, err := jsonpos.Parse(js, MaxDepth)
	if err != nil {
		return "hooks"
	}
	var path []string
	for v := root; v != nil; {
		var next *jsonpos.Value
		switch v.Kind {
		case jsonpos.Object:
			var key string
			for _, m := range v.Members {
				if m.KeyOff <= off {
					key, next = m.Key, m.Value
				}
			}
			if next != nil {
				path = append(path, key)
			}
		case jsonpos.Array:
			for i, el := range v.Elems {
				if el.Off <= off {
					next = el
					if len(path) > 0 {
						path[len(path)-1] = strings.SplitN(path[len(path)-1], "[", 2)[0] + fmt.Sprintf("[%d]", i)
					}
				}
			}
		}
		v = next
	}
	if len(path) == 0 {
		return "hooks"
	}
	return strings.Join(path, ".")
}

// decodeTOML decodes data, an agent's config.toml, into f's document: one over MaxFileSize, or
// a TOML syntax error (at its line and column), is a problem of f, which is then unusable.
func decodeTOML(f *File, data []byte) (map[string]any, bool) {
	if len(data) > MaxFileSize {
		f.Problems.Add(srcpos.Pos{File: f.Source.File}, srcpos.Error, CodeRead, fmt.Sprintf("config.toml is %d bytes, more than the limit of %d", len(data), MaxFileSize))
		f.Usable = false
		return nil, false
	}
	var doc map[string]any
	if err := toml.Unmarshal(data, &doc); err != nil {
		pos := srcpos.Pos{File: f.Source.File}
		var de *toml.DecodeError
		if errors.As(err, &de) {
			pos.Line, pos.Col = de.Position()
		}
		f.Problems.Add(pos, srcpos.Error, CodeSyntax, "invalid TOML: "+err.Error())
		f.Usable = false
		return nil, false
	}
	return doc, true
}
