package config

import (
	"errors"
	"io/fs"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/agents"
	"github.com/agenthooks/agenthooks/dialect/cursor"
	"github.com/agenthooks/agenthooks/internal/regfile"
	"github.com/agenthooks/agenthooks/internal/srcpos"
)

// Env says where to look for config files. Every root can be overridden, so that tests and
// embedders never touch the real machine's files.
type Env struct {
	// Home is the user's home directory (~/.cursor/...). It must be absolute. Empty means no
	// user or team layer is looked for: config does not look the home up itself (engine.Load
	// fills in os.UserHomeDir for an empty Home, and refuses a relative one).
	Home string
	// EnterpriseDir is the folder of the enterprise hooks.json; empty means the platform's own.
	EnterpriseDir string
	// GOOS selects the platform's enterprise folder; empty means runtime.GOOS.
	GOOS string
	// Workspaces are the workspace roots whose .cursor/hooks.json are project layers.
	Workspaces []string
	// ClaudeManagedDir is the folder of Claude Code's managed settings; empty means the platform's.
	ClaudeManagedDir string
	// CodexHome is Codex's folder ($CODEX_HOME); empty means ~/.codex.
	CodexHome string
	// Getenv, when set, reads the environment variables that move an agent's folders (an
	// agent's HomeEnv and ManagedEnv) that the fields above do not stand for.
	Getenv func(string) string
}

// EnterpriseDir returns the platform folder of Cursor's enterprise hooks.json.
func EnterpriseDir(goos string) string { return cursor.ManagedDir(goos) }

// Candidate is a place a config file may be.
type Candidate struct {
	Layer     Layer
	Path      string
	Workspace string
	// Explicit marks a file the caller named itself: it is trusted whatever its layer.
	Explicit bool
	// Family is the agent whose file it is (the default agent's when empty).
	Family dialect.Name
	// Format is the file's shape; 0 means as the agent's file of the same extension.
	Format dialect.Format
}

// Candidates lists, in priority order, every place a Cursor hooks.json is looked for.
func Candidates(env Env) []Candidate { return AgentCandidates(env, &cursor.Agent) }

// Load reads every candidate that exists. A missing file is skipped; one that cannot be read
// becomes a File with a read problem and no hooks. A project or local file is used only when
// trust accepts the content that was read (nil trusts none); otherwise it is kept, marked
// untrusted with the reason, and none of its hooks run. The result is ordered by layer
// priority, then by the order of candidates.
func Load(cands []Candidate, trust TrustFunc) *Config {
	c := &Config{}
	for _, cand := range cands {
		data, err := readLimited(cand.Path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		family := cand.Family
		if family == "" {
			family = agents.Default().Name
		}
		src := Source{Layer: cand.Layer, Family: family, File: cand.Path, Workspace: cand.Workspace, Trusted: true}
		if (cand.Layer == Project || cand.Layer == Local) && !cand.Explicit {
			switch {
			case trust == nil:
				src.Untrusted = notTrusted(cand.Workspace)
			case err != nil:
				src.Untrusted = &Untrust{Code: UntrustUnreadable, Message: "it cannot be read, so its content cannot be checked against the trust store"}
			default:
				src.Untrusted = trust(cand.Workspace, cand.Path, data)
			}
			src.Trusted = src.Untrusted == nil
		}
		if err != nil {
			f := &File{Source: src}
			f.Problems.Add(srcpos.Pos{File: cand.Path}, srcpos.Error, CodeRead, "cannot read config: "+err.Error())
			c.Files = append(c.Files, f)
			continue
		}
		cand.Family = family
		format := formatOf(cand)
		if f := DecodeAs(src, data, format); format != dialect.FormatCodexTOML && format != dialect.FormatClineHook && format != dialect.FormatKimiTOML || len(f.Hooks) > 0 || len(f.Problems) > 0 {
			c.Files = append(c.Files, f)
		}
	}
	sort.SliceStable(c.Files, func(i, j int) bool {
		return c.Files[i].Source.Layer.Rank() < c.Files[j].Source.Layer.Rank()
	})
	return c
}

// DecodeAs decodes a hooks file of the given format: Cursor's hooks.json (the default), Claude
// Code's settings.json shape, Codex's config.toml, Copilot CLI's hooks file or settings.json or
// Windsurf's Cascade hooks.json or Antigravity CLI's hooks.json.
func DecodeAs(src Source, data []byte, format dialect.Format) *File {
	switch format {
	case dialect.FormatCodexTOML:
		return DecodeCodexTOML(src, data)
	case dialect.FormatSettings:
		return DecodeSettings(src, data)
	case dialect.FormatCopilotHooks, dialect.FormatCopilotSettings:
		return DecodeCopilot(src, data, format == dialect.FormatCopilotSettings)
	case dialect.FormatCrush:
		return DecodeCrush(src, data)
	case dialect.FormatBareSettings:
		return DecodeBareSettings(src, data)
	case dialect.FormatWindsurfHooks:
		return DecodeWindsurf(src, data)
	case dialect.FormatAntigravityHooks:
		return DecodeAntigravity(src, data)
	case dialect.FormatOpenCodePlugin:
		return DecodeOpenCode(src, data)
	case dialect.FormatClineHook:
		return DecodeCline(src, data)
	case dialect.FormatKiroHooks, dialect.FormatKiroAgent:
		return DecodeKiro(src, data, format == dialect.FormatKiroAgent)
	case dialect.FormatVSCodeHooks:
		return DecodeVSCode(src, data)
	case dialect.FormatKimiTOML:
		return DecodeKimi(src, data)
	}
	return Decode(src, data)
}

// readLimited reads a regular file of at most MaxFileSize bytes, without blocking on a FIFO or
// reading a device without end.
func readLimited(path string) ([]byte, error) { return regfile.Read(path, MaxFileSize) }

// joinFor joins a folder and a file name with goos's separator, so the enterprise path of
// another platform reads as it does there.
func joinFor(goos, dir, name string) string {
	switch {
	case goos == runtime.GOOS:
		return join(dir, filepath.ToSlash(name))
	case goos == "windows":
		return strings.TrimRight(dir, `\/`) + `\` + name
	}
	return path.Join(dir, name)
}
