// Package docs holds agenthooks' user documentation, one Markdown page per topic; README.md at
// the repository's root is the front door that links here. The package has no code: its test
// keeps the pages honest, failing when a link leaves the repository or points at a file or
// heading that does not exist, and when a page shows an agenthooks command or flag that the
// binaries do not have.
package docs
