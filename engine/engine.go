package engine

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/decide"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/agents"
)

// Options configures an Engine. The zero value reads the real machine's layers for the current
// user (home from os.UserHomeDir), trusts project files only as that user's trust store
// records them, and merges with decide.MergeAll.
type Options struct {
	// Env says where the layers are: home, enterprise folder, workspaces. An empty Env.Home
	// means the user's home folder (os.UserHomeDir); when there is none, the user layers are
	// not read and no project file is trusted. A relative Env.Home is refused: it would be
	// resolved in the working directory, where a repository could plant its own trust store.
	Env config.Env
	// Files are explicit config files. One whose Layer is empty becomes a CLI layer, ranked just
	// below enterprise; one with a Layer replaces every file the discovery found for that layer.
	Files []ConfigFile
	// Families limits which kinds of config file are read: Cursor's hooks.json, Claude Code's
	// settings.json. Empty reads both. An agent runs its own files' hooks itself, so the runner
	// registered in it reads the other family's. A built-in guard that the calling agent's own
	// files (left out here) register for a call is not run again by Fire for that call.
	Families []dialect.Name
	// Default is a hooks.json used only when no layer has a file, untrusted project files aside
	// (the embedded example).
	Default []byte
	// Trusted, when set, says whether a workspace's project files may be used, whatever their
	// content. Nil consults the user's trust store (~/.agenthooks/trust.json under Env.Home),
	// which trusts each project file only with the content it had when a person trusted it.
	Trusted func(workspace string) bool
	// TrustAll trusts every workspace for this engine (the CLI's --trust).
	TrustAll bool
	// Merge selects the merge rule; empty means decide.MergeAll.
	Merge decide.Mode
	// Sequential runs every event's hooks one after another, in order.
	Sequential bool
	// MaxParallel bounds how many hooks of one event run at once; 0 means 8.
	MaxParallel int
	// Self is the executable a hook command naming "agenthooks" as its program runs.
	Self string
	// Environ is the base environment of hooks; nil means the process's own.
	Environ []string
	// HookTimeout, when set, is the timeout of every hook that sets none; 0 gives such a hook
	// the timeout of the agent whose file holds it (DefaultTimeout), as that agent would.
	HookTimeout time.Duration
	// TimeLimit, when set, is the time the runner has before the calling agent gives up on it:
	// no hook's timeout is longer (the runner's context, stopped at the limit, denies first).
	TimeLimit time.Duration
	// KillGrace is the time between SIGTERM and SIGKILL for a hook past its timeout.
	KillGrace time.Duration
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger
	// AskAs is what an ask becomes for an agent that cannot ask a person (Codex): empty means
	// deny, the safe choice.
	AskAs dialect.AskAs
	// HTTP makes the requests of http hooks (httphook.Post does it with net/http); nil makes
	// every http hook fail with an error, non-blocking unless the hook is failClosed.
	HTTP HTTPPoster
}

// ConfigFile is a config file named explicitly: a Cursor hooks.json, or with Family claude a
// Claude Code settings.json.
type ConfigFile struct {
	Layer  config.Layer
	Path   string
	Family dialect.Name
}

// Engine runs hooks for events. It is safe for concurrent use; its Config never changes.
type Engine struct {
	cfg  *config.Config
	opts Options
	log  *slog.Logger

	ownMu sync.Mutex
	own   map[dialect.Name]*config.Config // see ownConfig
}

// ErrUnknownEvent is returned by Fire for an event name the dialect does not define.
var ErrUnknownEvent = errors.New("unknown event")

// Load gathers the config layers that opts describe and returns an Engine over them. Config
// problems do not make Load fail: invalid files are kept with their problems (see
// Engine.Config().Problems()) and none of their hooks run, so that one broken file never turns
// off the hooks of the others.
func Load(opts Options) (*Engine, error) {
	if opts.Env.Home == "" {
		opts.Env.Home, _ = os.UserHomeDir() // none: no user layer, no trust store
	} else if !filepath.IsAbs(opts.Env.Home) {
		return nil, fmt.Errorf("engine: Env.Home %q is not an absolute path: the trust store would be looked for in the working directory", opts.Env.Home)
	}
	cands := config.CandidatesOf(opts.Env, opts.Families...)
	for _, f := range opts.Files {
		if f.Layer != "" {
			cands = replaceLayer(cands, f.Layer)
		}
	}
	for _, f := range opts.Files {
		layer := f.Layer
		if layer == "" {
			layer = config.CLI
		}
		cands = append(cands, config.Candidate{Layer: layer, Path: f.Path, Explicit: true, Family: f.Family})
	}
	var trust config.TrustFunc
	switch {
	case opts.TrustAll:
		trust = config.TrustAll
	case opts.Trusted != nil:
		trust = func(ws, _ string, _ []byte) *config.Untrust {
			if opts.Trusted(ws) {
				return nil
			}
			return &config.Untrust{Code: config.UntrustWorkspace, Message: "workspace " + ws + " is not trusted by the embedder"}
		}
	default:
		trust = config.NewTrustStore(opts.Env.Home).Check()
	}
	cfg := config.Load(cands, trust)
	for _, f := range opts.Files {
		if !cfgHas(cfg, f.Path) {
			return nil, fmt.Errorf("config %s: %w", f.Path, os.ErrNotExist)
		}
	}
	// The default stands in while no layer has a file that could run: a fresh machine, or
	// only an untrusted project's file, which must not switch the default guard off.
	if len(cfg.Files) == len(cfg.Untrusted()) && len(opts.Default) > 0 {
		cfg.Files = append(cfg.Files, config.Decode(config.Source{Layer: config.Default, File: "(embedded default)", Trusted: true}, opts.Default))
	}
	return New(cfg, opts), nil
}

// New returns an Engine over an already loaded Config.
func New(cfg *config.Config, opts Options) *Engine {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if opts.Merge == "" {
		opts.Merge = decide.MergeAll
	}
	if opts.MaxParallel <= 0 {
		opts.MaxParallel = 8
	}
	if opts.Environ == nil {
		opts.Environ = os.Environ()
	}
	return &Engine{cfg: cfg, opts: opts, log: log}
}

// Config returns the loaded configuration.
func (e *Engine) Config() *config.Config { return e.cfg }

func replaceLayer(cands []config.Candidate, layer config.Layer) []config.Candidate {
	out := cands[:0:0]
	for _, c := range cands {
		if c.Layer != layer {
			out = append(out, c)
		}
	}
	return out
}

func cfgHas(cfg *config.Config, path string) bool {
	for _, f := range cfg.Files {
		if f.Source.File == path {
			return true
		}
	}
	return false
}

// lookup returns the Cursor event named name.
func lookup(d dialect.Dialect, name string) (*dialect.Spec, error) {
	ev, ok := d.Lookup(name)
	if !ok {
		return nil, fmt.Errorf("%w %q for %s (known events: %s)", ErrUnknownEvent, name, d.Name(), strings.Join(d.Names(), ", "))
	}
	return ev, nil
}

// agentFor returns an agent by name; the default agent (Cursor) when the name is empty.
func agentFor(n dialect.Name) *dialect.Agent {
	if a := agents.Get(n); a != nil {
		return a
	}
	return agents.Default()
}

// dialectFor returns a hook's dialect by name; Cursor when the name is empty. A Codex hook's
// answer is read as Claude Code reads it (its intent kept where Codex itself is laxer).
func dialectFor(n dialect.Name) dialect.Dialect { return agentFor(n).Dialect(dialect.AskAsDeny) }

// agentDialect returns the dialect of the agent calling, whose answers are written in the form
// it honours: an ask it cannot show becomes the configured AskAs.
func (e *Engine) agentDialect(n dialect.Name) dialect.Dialect {
	return agentFor(n).Dialect(cmp.Or(e.opts.AskAs, dialect.AskAsDeny))
}

// hookEvent is the event whose hooks run for an agent's event, and the payload they read.
// Codex speaks Claude Code's format, so a Codex event runs the hooks (and payload translation)
// of its Claude Code namesake. A Gemini event does too, its payload rewritten in Claude Code's
// shape first. An event only the agent has runs none.
func hookEvent(spec *dialect.Spec, payload []byte) (*dialect.Spec, []byte, []string, error) {
	a := agentFor(spec.Dialect)
	if a.Speaks == "" {
		return spec, payload, nil, nil
	}
	name, notes := spec.Name, []string(nil)
	var readings []string
	if a.SpokenToolReadings != nil && spec.Target == dialect.FieldName {
		if tool, _ := matchTarget(spec, payload); tool != "" {
			readings = a.SpokenToolReadings(tool)
		}
	}
	if a.ToSpoken != nil {
		var err error
		if name, payload, notes, err = a.ToSpoken(spec.Name, payload); err != nil {
			return nil, nil, nil, err
		}
		if name == "" {
			return spec, payload, nil, nil
		}
	}
	if s, ok := agentFor(a.Speaks).Dialect(dialect.AskAsDeny).Lookup(name); ok {
		if len(readings) > 0 && s.Target == dialect.FieldName {
			c := *s // this call's copy: the table's Spec is shared
			c.Readings = readings
			s = &c
		}
		return s, payload, notes, nil
	}
	return spec, payload, notes, nil
}
