// Package config loads hook configurations in three steps: decode each file keeping positions,
// gather the layers (enterprise, team, project, user) keeping where each hook came from, and
// validate into an immutable Config. Validation collects every problem with its file, line and
// column; Cursor's own messages are used verbatim where Cursor has one. A missing layer is normal;
// an unreadable or invalid one is reported by name and never silently skipped.
//
// It may import dialect packages, guard and internal/srcpos; never engine, cli or runner.
package config
