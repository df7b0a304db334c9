// Package goose is Goose's hooks dialect (the Rust agent of block/goose, now the Agentic AI
// Foundation's, read in crates/goose/src/hooks/mod.rs and crates/goose/src/plugins/discovery.rs
// at commit 0825b57, and in its hooks guide): its events, a hook's run read as an answer the
// way Goose's classify_output reads it, a decision written in the one form Goose takes, the
// rewrite of its payload (an "event" field, namespaced tool names such as developer__shell,
// path/before/after file arguments) into Claude Code's shape and back, and the plugin hooks
// file install writes.
//
// Goose reads hooks only from plugins: hooks/hooks.json inside each folder of
// ~/.agents/plugins and <project>/.agents/plugins, in Claude Code's matcher-group shape with a
// matcher that is always an unanchored regular expression. It imports decide, dialect,
// dialect/claude and github.com/goccy/go-yaml (doctor reads Goose's config.yaml).
package goose
