// Package engine runs an AI coding agent's hooks: Load gathers the hook configs from every layer,
// and Fire runs the hooks of one event (JSON on stdin, timeouts, process-group kill, output caps),
// validates each answer for the event, merges the answers into one Decision and says which hook
// decided and why. It is the library a Go agent embeds; the agenthooks CLI is a thin shell over it.
//
// A hook that fails (crash, bad answer, timeout) is data, not a Go error: it becomes a Run, and
// the hook's fail mode decides what it means. Fire returns an error only when the engine itself
// cannot work (an unknown event, a payload that is not a JSON object).
//
// engine imports config, decide, runner, guard and the dialect packages; none of them imports it.
package engine
