package opencode

import (
	"bytes"
	"encoding/json"
	"strings"
	"time"

	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/internal/jsonpos"
	"github.com/agenthooks/agenthooks/internal/srcpos"
)

// DefaultTimeout is how long the plugin lets one agenthooks call run before it kills it and
// blocks the call (OpenCode itself sets no limit on a plugin's hook).
const DefaultTimeout = 60 * time.Second

// PluginFile is the plugin install writes, under the user's OpenCode folder and a project's
// .opencode: OpenCode loads every plugin/*.js of its config folders.
const PluginFile = "plugin/agenthooks.js"

// The markers around the plugin's settings, one JSON object, so that agenthooks reads the file
// back (lint, list, doctor, status) without running JavaScript.
const (
	beginMark = "/* agenthooks:config */"
	endMark   = "/* agenthooks:end */"
)

// Limits on a plugin file.
const (
	MaxFileSize  = 1 << 20
	MaxFileDepth = 16
)

// Problem codes, the same words config uses for the same problems.
const (
	CodeSyntax       = "syntax"
	CodeHooks        = "hooks"
	CodeUnknownEvent = "unknown_event"
	CodeField        = "field"
)

// settings is the plugin's JSON settings: the agenthooks it runs and its entries.
type settings struct {
	Program string         `json:"program"`
	Timeout int            `json:"timeout"`
	Hooks   []settingsHook `json:"hooks"`
}

type settingsHook struct {
	Event   string   `json:"event"`
	Matcher string   `json:"matcher,omitempty"`
	Program string   `json:"program,omitempty"` // agenthooks-guard, where it runs the entry
	Args    []string `json:"args"`
}

// Plugin renders the plugin install writes (dialect.Install.Own): path is agenthooks' absolute
// path, run with each entry's arguments, no shell in between.
func Plugin(_, path string, entries []dialect.InstallEntry) []byte {
	s := settings{Program: path, Timeout: int(DefaultTimeout / time.Second)}
	for _, en := range entries {
		h := settingsHook{Event: en.Event, Matcher: en.Matcher}
		var prog string
		prog, h.Args = en.Argv(path)
		if prog != path {
			h.Program = prog
		}
		s.Hooks = append(s.Hooks, h)
	}
	// One entry a line: {"program": ..., "timeout": ..., "hooks": [\n {...},\n {...}\n]}.
	var b strings.Builder
	b.WriteString("{\n  \"program\": " + marshal(s.Program) + ",\n  \"timeout\": " + marshal(s.Timeout) + ",\n  \"hooks\": [")
	for i, h := range s.Hooks {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n    " + marshal(h))
	}
	b.WriteString("\n  ]\n}")
	return []byte(strings.Replace(pluginSource, "@SETTINGS@", b.String(), 1))
}

// Hook is one entry of a plugin file. Program is the entry's own program (agenthooks-guard)
// when it names one, else "": the plugin's.
type Hook struct {
	Event, Matcher, Program string
	Args                    []string
	Pos                     srcpos.Pos
}

// Decoded is a plugin file as agenthooks reads it.
type Decoded struct {
	Program  string
	Timeout  time.Duration
	Hooks    []Hook
	Problems srcpos.List
}

// DecodePlugin reads the settings of a plugin install wrote, with positions in the file. A file
// without them is a problem: it is not agenthooks' plugin, or it was edited.
func DecodePlugin(file string, data []byte) Decoded {
	var d Decoded
	problem := func(off int, code, msg string) { d.Problems.Add(srcpos.At(file, data, off), srcpos.Error, code, msg) }
	if len(data) > MaxFileSize {
		problem(0, CodeSyntax, "the plugin is larger than agenthooks writes it")
		return d
	}
	start := bytes.Index(data, []byte(beginMark))
	end := -1
	if start >= 0 {
		start += len(beginMark)
		end = bytes.Index(data[start:], []byte(endMark)) // after the begin mark, never overlapping it
	}
	if end < 0 {
		problem(0, CodeSyntax, "no agenthooks settings ("+beginMark+" ... "+endMark+"): not the plugin agenthooks install writes; reinstall it")
		return d
	}
	end += start
	root, off, err := jsonpos.ParseLimited(data[start:end], MaxFileSize, MaxFileDepth)
	if err != nil {
		problem(start+off, CodeSyntax, "invalid JSON in the plugin's settings: "+err.Error())
		return d
	}
	if root.Kind != jsonpos.Object {
		problem(start+root.Off, CodeSyntax, "the plugin's settings must be a JSON object")
		return d
	}
	at := func(v *jsonpos.Value) int { return start + v.Off }
	if p := root.Get("program"); p == nil || p.Kind != jsonpos.String || p.Str == "" {
		problem(at(root), CodeField, "program: the path of agenthooks is missing")
	} else {
		d.Program = p.Str
	}
	d.Timeout = DefaultTimeout
	if t := root.Get("timeout"); t != nil {
		n, err := t.Num.Int64()
		if t.Kind != jsonpos.Number || err != nil || n <= 0 {
			problem(at(t), CodeField, "timeout: must be a whole number of seconds above 0")
		} else {
			d.Timeout = time.Duration(n) * time.Second
		}
	}
	hooks := root.Get("hooks")
	if hooks == nil || hooks.Kind != jsonpos.Array {
		problem(at(root), CodeHooks, "hooks: must be an array of entries")
		return d
	}
	for i, el := range hooks.Elems {
		where := "hooks[" + itoa(i) + "]"
		if el.Kind != jsonpos.Object {
			problem(at(el), CodeHooks, where+": must be an object")
			continue
		}
		h := Hook{Pos: srcpos.At(file, data, at(el))}
		ev := el.Get("event")
		if ev == nil || ev.Kind != jsonpos.String {
			problem(at(el), CodeField, where+".event: must be a string")
			continue
		}
		if _, ok := events()[ev.Str]; !ok {
			problem(at(ev), CodeUnknownEvent, where+".event: the plugin passes on "+strings.Join(Events, " and ")+", not "+ev.Str)
			continue
		}
		h.Event = ev.Str
		if m := el.Get("matcher"); m != nil {
			if m.Kind != jsonpos.String {
				problem(at(m), CodeField, where+".matcher: must be a string")
				continue
			}
			h.Matcher = m.Str
		}
		if p := el.Get("program"); p != nil {
			if p.Kind != jsonpos.String || p.Str == "" {
				problem(at(p), CodeField, where+".program: must be the path of the program the entry runs")
				continue
			}
			h.Program = p.Str
		}
		args := el.Get("args")
		if args == nil || args.Kind != jsonpos.Array || len(args.Elems) == 0 {
			problem(at(el), CodeField, where+".args: must be a non-empty array of strings")
			continue
		}
		ok := true
		for _, a := range args.Elems {
			if a.Kind != jsonpos.String {
				problem(at(a), CodeField, where+".args: must hold strings only")
				ok = false
				break
			}
			h.Args = append(h.Args, a.Str)
		}
		if ok {
			d.Hooks = append(d.Hooks, h)
		}
	}
	return d
}

// marshal writes v as JSON without escaping <, > and & (a path may hold them).
func marshal(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // strings, numbers and slices of strings only
	return strings.TrimSuffix(b.String(), "\n")
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}

// pluginSource is the plugin, with @SETTINGS@ where its settings go. It must run as OpenCode
// runs plugins (Bun, an ES module) and under Node for the tests; it needs no package.
const pluginSource = `// agenthooks' OpenCode plugin, written by "agenthooks install --agent opencode".
// It is agenthooks' own file: install rewrites it and "agenthooks uninstall --agent opencode"
// deletes it. Before each tool call and each prompt it passes the call or the prompt to
// agenthooks as JSON on stdin (no shell in between) and throws, which stops it, when agenthooks
// blocks it, and also when agenthooks is missing, crashes or answers with anything it cannot
// read: it fails closed. Session events (session.created, session.idle) are passed on too;
// there nothing blocks and a failure is ignored.
import { spawnSync } from "node:child_process";

const agenthooks = ` + beginMark + ` @SETTINGS@ ` + endMark + `;

function matches(hook, tool) {
  if (!hook.matcher || hook.matcher === "*") return true;
  try {
    return new RegExp("^(?:" + hook.matcher + ")$").test(tool);
  } catch {
    return true; // a matcher that does not compile runs the hook rather than skip it
  }
}

// call runs one entry and reads its answer: null (nothing to say), {block}, {fail},
// or the JSON object agenthooks wrote ({decision, reason, args, context}).
function call(hook, payload, cwd) {
  const program = hook.program || agenthooks.program;
  let r;
  try {
    r = spawnSync(program, hook.args, {
      input: JSON.stringify(payload),
      cwd: cwd || undefined,
      encoding: "utf8",
      timeout: agenthooks.timeout * 1000,
      maxBuffer: 16 * 1024 * 1024,
      windowsHide: true,
    });
  } catch (e) {
    return { fail: "agenthooks could not be started (" + program + "): " + (e && e.message ? e.message : String(e)) };
  }
  const stderr = String(r.stderr || "").trim();
  if (r.error && r.error.code === "ETIMEDOUT") return { fail: "agenthooks " + hook.args.join(" ") + " did not answer within " + agenthooks.timeout + " s" };
  if (r.error) return { fail: "agenthooks could not be run (" + program + "): " + r.error.message };
  if (r.status === 2) return { block: stderr || "blocked by agenthooks" };
  if (r.status !== 0) {
    const how = r.status === null ? "was killed (" + (r.signal || "timeout") + ")" : "exited with status " + r.status;
    return { fail: "agenthooks " + hook.args.join(" ") + " " + how + (stderr ? ": " + stderr : "") };
  }
  const out = String(r.stdout || "").trim();
  if (out === "") return null;
  let v;
  try {
    v = JSON.parse(out);
  } catch {
    return { fail: "agenthooks' answer is not a JSON object: " + out.slice(0, 200) };
  }
  if (v === null || typeof v !== "object" || Array.isArray(v)) return { fail: "agenthooks' answer is not a JSON object: " + out.slice(0, 200) };
  if (v.decision === "deny") return { block: typeof v.reason === "string" && v.reason.trim() ? v.reason : "blocked by agenthooks" };
  if (v.decision !== undefined && v.decision !== "allow") return { fail: "agenthooks' answer has an unknown decision: " + String(v.decision) };
  return v;
}

// refusal is what chat.message throws to drop a prompt. OpenCode's server turns an error thrown
// there into "Unexpected server error" (status 500), except its own configuration errors, which
// it recognises by name alone and sends to the client as their toObject(); its CLI prints a
// ConfigFrontmatterError's message as it is ("Error: <message>"), and the TUI's "Failed to send
// prompt" toast shows data.message. So the person reads why the prompt was dropped.
function refusal(message) {
  const e = new Error(message);
  e.name = "ConfigFrontmatterError";
  e.data = { path: "agenthooks", message };
  e.toObject = () => ({ name: e.name, data: e.data });
  return e;
}

export const AgenthooksPlugin = async ({ directory }) => ({
  "tool.execute.before": async (input, output) => {
    const payload = {
      hook_event_name: "tool.execute.before",
      tool: input.tool,
      sessionID: input.sessionID,
      callID: input.callID,
      args: output.args,
      cwd: directory,
    };
    for (const hook of agenthooks.hooks) {
      if (hook.event !== "tool.execute.before" || !matches(hook, input.tool)) continue;
      const a = call(hook, payload, directory);
      if (a === null) continue;
      if (a.block !== undefined) throw new Error(a.block);
      if (a.fail !== undefined) throw new Error("Blocked by agenthooks (the OpenCode plugin fails closed): " + a.fail);
      if (a.args && typeof a.args === "object" && !Array.isArray(a.args) && output.args && typeof output.args === "object") {
        // OpenCode runs the tool with this very object: change it in place.
        for (const k of Object.keys(output.args)) delete output.args[k];
        Object.assign(output.args, a.args);
      }
    }
  },
  "tool.execute.after": async (input, output) => {
    const payload = {
      hook_event_name: "tool.execute.after",
      tool: input.tool,
      sessionID: input.sessionID,
      callID: input.callID,
      args: input.args,
      cwd: directory,
      title: output.title,
      output: typeof output.output === "string" ? output.output : undefined,
    };
    for (const hook of agenthooks.hooks) {
      if (hook.event !== "tool.execute.after" || !matches(hook, input.tool)) continue;
      const a = call(hook, payload, directory);
      // The tool has run: a failure here changes nothing.
      if (a && typeof a.context === "string" && a.context !== "" && typeof output.output === "string") {
        output.output += "\n\n" + a.context;
      }
    }
  },
  "chat.message": async (input, output) => {
    // A person's prompt, before OpenCode saves or sends it: a throw drops it (fails closed).
    const parts = output && Array.isArray(output.parts) ? output.parts : [];
    const attachments = [];
    for (const p of parts) {
      if (!p || p.type !== "file" || typeof p.url !== "string" || !p.url.startsWith("file:")) continue;
      try {
        attachments.push({ filePath: decodeURIComponent(new URL(p.url).pathname) });
      } catch {
        attachments.push({ filePath: p.url });
      }
    }
    const payload = {
      hook_event_name: "chat.message",
      sessionID: input.sessionID,
      messageID: input.messageID,
      agent: input.agent,
      prompt: parts.filter((p) => p && p.type === "text" && !p.synthetic && typeof p.text === "string").map((p) => p.text).join("\n\n"),
      attachments,
      cwd: directory,
    };
    for (const hook of agenthooks.hooks) {
      if (hook.event !== "chat.message") continue;
      const a = call(hook, payload, directory);
      if (a === null) continue;
      if (a.block !== undefined) throw refusal(a.block);
      if (a.fail !== undefined) throw refusal("Blocked by agenthooks (the OpenCode plugin fails closed): " + a.fail);
    }
  },
  event: async ({ event }) => {
    // OpenCode does not await this hook and nothing here can block: a failure is ignored.
    try {
      if (!event || (event.type !== "session.created" && event.type !== "session.idle")) return;
      const p = event.properties || {};
      const payload = { hook_event_name: event.type, sessionID: p.sessionID || (p.info && p.info.id), cwd: directory };
      if (event.type === "session.created" && p.info && p.info.parentID) payload.parentID = p.info.parentID;
      for (const hook of agenthooks.hooks) {
        if (hook.event === event.type) call(hook, payload, directory);
      }
    } catch {
      // silent: a session event gates nothing
    }
  },
});
`
