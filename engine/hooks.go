package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/dialect/translate"
	"github.com/agenthooks/agenthooks/guard/shell"
	"github.com/agenthooks/agenthooks/runner"
)

// hookPayload returns the event a hook runs as in its own dialect and the payload it reads:
// the agent's payload as it came when the hook speaks the agent's dialect for the same event,
// else a translation, with notes on what the translation could not carry.
func (e *Engine) hookPayload(spec *dialect.Spec, h *config.Hook, payload []byte) (*dialect.Spec, []byte, []string, error) {
	hd := dialectFor(h.Dialect)
	event := h.Event
	if h.Dialect != h.Source.Family {
		event = translate.EventFor(h.Dialect, config.HookKind(h))
	}
	if h.Dialect == spec.Dialect && event == spec.Name {
		return spec, payload, nil, nil
	}
	if h.Dialect == spec.Dialect {
		// The agent's own dialect, but the hook is registered as another of its events (a
		// Cursor file's entry that speaks Claude Code, under Claude Code): the agent's event.
		return spec, payload, nil, nil
	}
	hookSpec, ok := hd.Lookup(event)
	if !ok {
		return nil, nil, nil, fmt.Errorf("%s %s has no %s counterpart", spec.Dialect, spec.Name, h.Dialect)
	}
	body, notes, err := e.translatePayload(spec, payload, h.Dialect, event)
	if err != nil {
		return nil, nil, notes, fmt.Errorf("translate the payload for a %s hook: %w", h.Dialect, err)
	}
	return hookSpec, body, notes, nil
}

func (e *Engine) translatePayload(spec *dialect.Spec, payload []byte, to dialect.Name, event string) ([]byte, []string, error) {
	project := ""
	if ws := e.opts.Env.Workspaces; len(ws) > 0 {
		project = ws[0]
	}
	body, notes, err := translate.Payload(spec.Dialect, spec.Name, payload, to, event, translate.Env{ProjectDir: project})
	for i, n := range notes {
		notes[i] = "translation: " + n
	}
	return body, notes, err
}

// fileView is the event and payload as the agent of a hook's file sees this call, for the
// file's own conditions (matcher, if, loop_limit) when the hook speaks another dialect: they
// were written against that agent's payload, tool names and command text.
func (e *Engine) fileView(spec *dialect.Spec, h *config.Hook, payload []byte) (*dialect.Spec, []byte, error) {
	family := h.Source.Family
	if spec.Dialect == family || family != "" && agentFor(family).SpeaksAs(spec.Dialect) {
		return spec, payload, nil
	}
	fileSpec, ok := dialectFor(family).Lookup(h.Event)
	if !ok {
		return nil, nil, fmt.Errorf("%s has no event %s", family, h.Event)
	}
	body, _, err := e.translatePayload(spec, payload, family, h.Event)
	return fileSpec, body, err
}

// prepare returns the event and payload a hook runs with, or why it does not run for this call.
func (e *Engine) prepare(spec *dialect.Spec, h *config.Hook, payload []byte) (*dialect.Spec, []byte, []string, string, error) {
	hookSpec, body, notes, err := e.hookPayload(spec, h, payload)
	if err != nil {
		return nil, nil, notes, "", err
	}
	if h.Source == nil || h.Dialect == h.Source.Family {
		return hookSpec, body, notes, skipReason(hookSpec, h, body), nil
	}
	fileSpec, fileBody, err := e.fileView(spec, h, payload)
	if err != nil {
		return nil, nil, notes, "", fmt.Errorf("read the call as %s does, for the hook's matcher: %w", h.Source.Family, err)
	}
	return hookSpec, body, notes, skipReason(fileSpec, h, fileBody), nil
}

// argv is a hook's exec form (Claude Code's "args"): the command and its arguments, run without
// a shell, with ${VAR} placeholders of the hook's environment substituted in each element.
func (e *Engine) argv(h *config.Hook) []string {
	if len(h.Args) == 0 {
		return nil
	}
	out := make([]string, 0, len(h.Args)+1)
	for _, a := range append([]string{h.Command}, h.Args...) {
		out = append(out, os.Expand(a, func(name string) string { return lookupEnv(e.opts.Environ, name) }))
	}
	return out
}

func lookupEnv(env []string, name string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], name+"="); ok {
			return v
		}
	}
	return ""
}

// shellFor is the interpreter of a hook's shell form: PowerShell when the hook asks for it,
// otherwise the runner's /bin/sh -c, as Claude Code and Cursor use on macOS and Linux.
func shellFor(h *config.Hook) []string {
	if h.Shell == "powershell" {
		return []string{"pwsh", "-NoProfile", "-Command"}
	}
	return nil
}

// startAsync starts an async hook in the background; it gives no answer.
func (e *Engine) startAsync(h *config.Hook, command string, body []byte, env []string) {
	err := runner.Start(runner.Spec{Command: command, Argv: e.argv(h), Shell: shellFor(h), Dir: e.hookDir(h, body), Env: env, Stdin: body})
	if err != nil {
		e.log.Warn("async hook could not start", "hook", h.String(), "error", err)
	}
}

// MaxHTTPResponse bounds what is read of an http hook's response.
const MaxHTTPResponse = 1 << 20

// HTTPRequest is the POST an http hook makes: the payload as body, with the hook's headers
// already expanded.
type HTTPRequest struct {
	URL    string            `json:"url"`
	Header map[string]string `json:"header,omitempty"`
	Body   []byte            `json:"body"`
}

// HTTPResponse is what came back: the status and at most MaxHTTPResponse bytes of the body,
// with Cut the bytes left unread.
type HTTPResponse struct {
	Status int    `json:"status"`
	Body   []byte `json:"body,omitempty"`
	Cut    int64  `json:"cut,omitempty"`
}

// HTTPPoster makes an http hook's request, without following redirects, until ctx (which
// carries the hook's timeout) ends. Package engine/httphook has the net/http one.
type HTTPPoster func(ctx context.Context, r HTTPRequest) (HTTPResponse, error)

// runHTTP POSTs the payload to an http hook, as Claude Code does, and reads the answer as a
// command's: a 2xx body is stdout with exit status 0; any other status, or no connection, is a
// non-blocking error (an http hook cannot block by its status code). Header values may use
// $VAR or ${VAR} only for the variables the hook lists in allowedEnvVars.
func (e *Engine) runHTTP(ctx context.Context, h *config.Hook, body []byte, timeout time.Duration, traceparent string) runner.Result {
	start := time.Now()
	if e.opts.HTTP == nil {
		return runner.Result{ExitCode: -1, Err: errors.New("http hooks are not enabled in this program (engine.Options.HTTP is not set)")}
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req := HTTPRequest{URL: h.URL, Body: body, Header: map[string]string{}}
	allowed := map[string]bool{}
	for _, v := range h.AllowedEnvVars {
		allowed[v] = true
	}
	for k, v := range h.Headers {
		req.Header[k] = os.Expand(v, func(name string) string {
			if !allowed[name] {
				return ""
			}
			return lookupEnv(e.opts.Environ, name)
		})
	}
	setTraceparent(req.Header, traceparent)
	resp, err := e.opts.HTTP(ctx, req)
	res := runner.Result{Duration: time.Since(start)}
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		res.TimedOut, res.ExitCode = true, -1
	case err != nil:
		res.ExitCode, res.Err = -1, err
	case resp.Status < 200 || resp.Status > 299:
		res.ExitCode = 1
		res.Stderr = []byte(fmt.Sprintf("HTTP status %d", resp.Status))
	default:
		res.Stdout, res.StdoutCut = resp.Body, resp.Cut
		if len(res.Stdout) > MaxHTTPResponse {
			res.StdoutCut += int64(len(res.Stdout) - MaxHTTPResponse)
			res.Stdout = res.Stdout[:MaxHTTPResponse]
		}
	}
	return res
}

// ifMatches evaluates Claude Code's "if" permission rule, Tool or Tool(pattern), on a hook's
// payload. A Bash pattern is matched against every command of the command line, read with the
// shell parser (so `cd x && git push` matches Bash(git push*)); a file tool's pattern against
// the file path. What cannot be read matches, as in Claude Code: the hook runs.
func ifMatches(rule, event string, payload []byte) (bool, string) {
	m := ifRulePattern().FindStringSubmatch(rule)
	if m == nil {
		return true, ""
	}
	tool, pattern := m[1], m[2]
	var p struct {
		ToolName  string         `json:"tool_name"`
		ToolInput map[string]any `json:"tool_input"`
		Cwd       string         `json:"cwd"`
	}
	if json.Unmarshal(payload, &p) != nil {
		return true, ""
	}
	skip := fmt.Sprintf("if %q does not match", rule)
	if p.ToolName != tool && !(strings.HasPrefix(tool, "mcp__") && strings.HasPrefix(p.ToolName, tool+"__")) {
		return false, skip + " the tool " + p.ToolName
	}
	if pattern == "" || pattern == "*" {
		return true, ""
	}
	pattern = strings.ReplaceAll(pattern, ":*", " *") // the older prefix form, npm run test:*
	switch tool {
	case "Bash":
		cmd, _ := p.ToolInput["command"].(string)
		s := shell.Analyze(cmd, shell.Options{})
		for _, f := range s.Findings {
			if f.Kind == shell.FindingParse {
				return true, ""
			}
		}
		for _, inv := range s.Invocations {
			words := make([]string, len(inv.Args))
			for i, w := range inv.Args {
				words[i] = w.Display()
			}
			line := strings.Join(words, " ")
			if globAll(pattern, line) || strings.HasSuffix(pattern, " *") && line == strings.TrimSuffix(pattern, " *") {
				return true, ""
			}
		}
		return false, skip + " any command of " + fmt.Sprintf("%q", cmd)
	default:
		file, _ := p.ToolInput["file_path"].(string)
		if file == "" {
			file, _ = p.ToolInput["path"].(string)
		}
		rel := strings.TrimPrefix(file, strings.TrimSuffix(p.Cwd, "/")+"/")
		if pathGlob(pattern, file) || pathGlob(strings.TrimPrefix(pattern, "./"), rel) || pathGlob("**/"+pattern, rel) {
			return true, ""
		}
		return false, skip + " " + file
	}
}

var ifRulePattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([A-Za-z][A-Za-z0-9_]*)(?:\((.*)\))?$`) })

// globAll matches s against a pattern where * is any text.
func globAll(pattern, s string) bool {
	re := "^" + strings.ReplaceAll(regexp.QuoteMeta(pattern), `\*`, ".*") + "$"
	ok, _ := regexp.MatchString(re, s)
	return ok
}

// pathGlob matches a path where * is any text within a segment and ** any number of segments.
func pathGlob(pattern, p string) bool {
	if strings.Contains(pattern, "**") {
		re := "^" + strings.NewReplacer(`\*\*/`, "(.*/)?", `\*\*`, ".*", `\*`, "[^/]*", `\?`, "[^/]").Replace(regexp.QuoteMeta(pattern)) + "$"
		ok, _ := regexp.MatchString(re, p)
		return ok
	}
	ok, _ := path.Match(pattern, p)
	return ok
}
