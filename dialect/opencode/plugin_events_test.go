package opencode

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// eventsHarness loads the plugin as OpenCode does and calls its chat.message hook with a prompt
// (the text a person wrote, a synthetic part OpenCode adds for an attached file, the file part
// itself), or its event hook with a bus event, and prints what happened. shown is what OpenCode
// 1.18.33 shows the person for an error chat.message throws: its server answers one of its own
// configuration errors, known by name, with the error's toObject() and anything else with
// "Unexpected server error"; opencode run prints a ConfigFrontmatterError's data.message.
const eventsHarness = `
const [plugin, directory, event, text] = process.argv.slice(2);
const configErrors = ["ConfigJsonError", "ConfigInvalidError", "ConfigFrontmatterError", "ConfigDirectoryTypoError", "ConfigRemoteAuthError"];
function shown(e) {
  if (!e || !configErrors.includes(e.name) || typeof e.toObject !== "function") return "Unexpected server error. Check server logs for details.";
  const body = JSON.parse(JSON.stringify(e.toObject()));
  if (body.name === "ConfigFrontmatterError" && body.data && typeof body.data.message === "string") return body.data.message;
  return JSON.stringify(body);
}
const { AgenthooksPlugin } = await import(plugin);
const hooks = await AgenthooksPlugin({ directory });
try {
  if (event === "chat.message") {
    const parts = [
      { type: "text", text },
      { type: "text", synthetic: true, text: "contents of the attached file" },
      { type: "file", mime: "text/plain", url: "file:///w/a%20b.txt", filename: "a b.txt" },
    ];
    await hooks["chat.message"]({ sessionID: "ses_1", agent: "build", messageID: "msg_1" }, { message: {}, parts });
  } else {
    const properties = event === "session.created" ? { sessionID: "ses_1", info: { id: "ses_1", parentID: "ses_0" } } : { sessionID: "ses_1" };
    await hooks.event({ event: { type: event, properties } });
  }
  console.log(JSON.stringify({ ok: true }));
} catch (e) {
  console.log(JSON.stringify({ ok: false, error: e.message, shown: shown(e) }));
}
`

// TestPluginPromptAndSessionEvents runs the plugin install writes (Agent.InstallEntries) under
// Node with a fake agenthooks: on chat.message the runner gets the prompt's own text and its
// attachment, a deny throws (OpenCode drops the prompt), and a missing or crashing agenthooks
// throws too (fails closed), each in the form OpenCode shows the person with the reason; on session.created and session.idle the runner gets the session,
// and neither a deny nor a failure throws.
func TestPluginPromptAndSessionEvents(t *testing.T) {
	node, dir, prog, h := nodeHarness(t, eventsHarness)
	entries := Agent.InstallEntries("guard bash --fail-closed")
	write := func(name, program string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, Plugin(program, program, entries), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	plugin, missing := write("agenthooks.mjs", prog), write("missing.mjs", filepath.Join(dir, "nowhere", "agenthooks"))
	project := t.TempDir()
	run := func(t *testing.T, plugin, mode, event string) (pluginResult, string, map[string]any) {
		t.Helper()
		_ = os.Remove(filepath.Join(dir, "calls"))
		_ = os.Remove(filepath.Join(dir, "payload.json"))
		cmd := exec.Command(node, h, plugin, project, event, "deploy it")
		cmd.Env = append(os.Environ(), "FAKE_MODE="+mode, "FAKE_DIR="+dir)
		out, err := cmd.CombinedOutput()
		var r pluginResult
		if err != nil || json.Unmarshal(out, &r) != nil {
			t.Fatalf("node: %v\n%s", err, out)
		}
		calls, _ := os.ReadFile(filepath.Join(dir, "calls"))
		var p map[string]any
		if b, err := os.ReadFile(filepath.Join(dir, "payload.json")); err == nil {
			_ = json.Unmarshal(b, &p)
		}
		return r, strings.TrimSpace(string(calls)), p
	}
	const runner = "run --agent opencode --fail-closed chat.message"
	t.Run("prompt payload", func(t *testing.T) {
		r, calls, p := run(t, plugin, "allow", ChatMessage)
		if !r.OK || calls != runner {
			t.Fatalf("got %+v, calls %q, want the runner only", r, calls)
		}
		want := map[string]any{"hook_event_name": ChatMessage, "sessionID": "ses_1", "messageID": "msg_1", "agent": "build",
			"prompt": "deploy it", "attachments": []any{map[string]any{"filePath": "/w/a b.txt"}}, "cwd": project}
		if !jsonEqual(p, want) {
			t.Errorf("payload %v, want %v", p, want)
		}
	})
	for _, c := range []struct{ name, plugin, mode, blocked string }{
		{"exit 2 drops the prompt", plugin, "deny2", "no way"},
		{"a deny drops the prompt", plugin, "denyjson", "json says no"},
		{"a crash drops the prompt", plugin, "crash", "fails closed): agenthooks " + runner + " exited with status 1: it broke"},
		{"garbage drops the prompt", plugin, "garbage", "fails closed): agenthooks' answer is not a JSON object"},
		{"a missing agenthooks drops the prompt", missing, "allow", "fails closed): agenthooks could not be run"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, _, _ := run(t, c.plugin, c.mode, ChatMessage)
			if r.OK || !strings.Contains(r.Error, c.blocked) {
				t.Errorf("got %+v, want a throw with %q", r, c.blocked)
			}
			if !strings.Contains(r.Shown, c.blocked) {
				t.Errorf("OpenCode would show the person %q, not why the prompt was dropped (%q)", r.Shown, c.blocked)
			}
		})
	}
	for _, ev := range []string{SessionCreated, SessionIdle} {
		t.Run(ev, func(t *testing.T) {
			r, calls, p := run(t, plugin, "allow", ev)
			if !r.OK || calls != "run --agent opencode "+ev {
				t.Fatalf("got %+v, calls %q", r, calls)
			}
			want := map[string]any{"hook_event_name": ev, "sessionID": "ses_1", "cwd": project}
			if ev == SessionCreated {
				want["parentID"] = "ses_0"
			}
			if !jsonEqual(p, want) {
				t.Errorf("payload %v, want %v", p, want)
			}
			for _, c := range []struct{ plugin, mode string }{{plugin, "deny2"}, {plugin, "denyjson"}, {plugin, "crash"}, {missing, "allow"}} {
				if r, _, _ := run(t, c.plugin, c.mode, ev); !r.OK {
					t.Errorf("%s %s: the event hook threw: %s", filepath.Base(c.plugin), c.mode, r.Error)
				}
			}
		})
	}
}
