package config

import (
	"errors"
	"io/fs"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"

	"github.com/agenthooks/agenthooks/dialect"
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
}

// EnterpriseDir returns the platform folder of Cursor's enterprise hooks.json.
func EnterpriseDir(goos string) string {
	switch goos {
	case "darwin":
		return "/Library/Application Support/Cursor"
	case "windows":
		return `C:\ProgramData\Cursor`
	}
	return "/etc/cursor"
}

// Candidate is a place a config file may be.
type Candidate struct {
	Layer     Layer
	Path      string
	Workspace string
	// Explicit marks a file the caller named itself: it is trusted whatever its layer.
	Explicit bool
	// Family is the kind of file: Cursor's hooks.json (the default) or Claude Code's settings.json.
	Family dialect.Name
}

// Candidates lists, in priority order, every place a Cursor hooks.json is looked for.
func Candidates(env Env) []Candidate {
	goos := env.GOOS
	if goos == "" {
		goos = runtime.GOOS
	}
	dir := env.EnterpriseDir
	if dir == "" {
		dir = EnterpriseDir(goos)
	}
	out := []Candidate{{Layer: Enterprise, Path: joinFor(goos, dir, "hooks.json")}}
	if env.Home != "" {
		teams, _ := filepath.Glob(filepath.Join(teamRoot(env.Home), "team_*", "hooks", "hooks.json"))
		sort.Strings(teams)
		for _, t := range teams {
			out = append(out, Candidate{Layer: Team, Path: t})
		}
	}
	for _, ws := range env.Workspaces {
		out = append(out, cursorProject(ws)...)
	}
	if env.Home != "" {
		out = append(out, Candidate{Layer: User, Path: filepath.Join(env.Home, ".cursor", "hooks.json")})
	}
	return out
}

// family is one kind of config file: where all its files are, and which of them a workspace
// holds. Every list of candidates, and the trust store's list of the files that trust unlocks,
// is built from this table.
type family struct {
	name    dialect.Name
	all     func(Env) []Candidate
	project func(ws string) []Candidate
}

func families() []family {
	return []family{
		{dialect.Cursor, Candidates, cursorProject},
		{dialect.Claude, ClaudeCandidates, claudeProject},
		{dialect.Codex, CodexCandidates, codexProject},
		{dialect.Gemini, GeminiCandidates, geminiProject},
	}
}

// CandidatesOf lists the candidates of the named kinds of file (every kind when names is
// empty), each kind in priority order.
func CandidatesOf(env Env, names ...dialect.Name) []Candidate {
	var out []Candidate
	for _, f := range families() {
		if len(names) == 0 || slices.Contains(names, f.name) {
			out = append(out, f.all(env)...)
		}
	}
	return out
}

func cursorProject(ws string) []Candidate {
	return []Candidate{{Layer: Project, Path: filepath.Join(ws, ".cursor", "hooks.json"), Workspace: ws}}
}

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
			family = dialect.Cursor
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
		if family == dialect.Codex && strings.HasSuffix(cand.Path, ".toml") {
			if f := DecodeCodexTOML(src, data); len(f.Hooks) > 0 || len(f.Problems) > 0 {
				c.Files = append(c.Files, f)
			}
			continue
		}
		if family == dialect.Claude || family == dialect.Codex || family == dialect.Gemini {
			c.Files = append(c.Files, DecodeSettings(src, data))
		} else {
			c.Files = append(c.Files, Decode(src, data))
		}
	}
	sort.SliceStable(c.Files, func(i, j int) bool {
		return c.Files[i].Source.Layer.Rank() < c.Files[j].Source.Layer.Rank()
	})
	return c
}

// readLimited reads a regular file of at most MaxFileSize bytes, without blocking on a FIFO or
// reading a device without end.
func readLimited(path string) ([]byte, error) { return regfile.Read(path, MaxFileSize) }

// joinFor joins a folder and a file name with goos's separator, so the enterprise path of
// another platform reads as it does there.
func joinFor(goos, dir, name string) string {
	switch {
	case goos == runtime.GOOS:
		return filepath.Join(dir, name)
	case goos == "windows":
		return strings.TrimRight(dir, `\/`) + `\` + name
	}
	return path.Join(dir, name)
}
