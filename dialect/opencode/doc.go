// Package opencode is OpenCode's hooks dialect and descriptor. OpenCode (npm opencode-ai) has no
// hook commands in its config: it loads JavaScript and TypeScript plugins from the plugin (or
// plugins) folder of its config folders (~/.config/opencode, a project's .opencode). agenthooks
// install writes one generated plugin there, agenthooks' own, whose tool.execute.before and
// tool.execute.after hooks pass each call to agenthooks as JSON on stdin and throw, which stops
// the call, when agenthooks blocks it or cannot answer (the plugin fails closed). This package
// renders that plugin, reads it back as a hooks file, and defines the payload it sends and the
// answers it honours, and reads OpenCode's own permission rules for its bash tool before the
// guard's confined rewrite. It imports dialect, decide, dialect/claude and internal packages only.
package opencode
