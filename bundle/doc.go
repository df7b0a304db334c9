// Package bundle owns the signed archive that carries a team's hooks from the server to its
// members' machines: building it (server side), opening it with every check a machine must make
// before trusting it (signature, team, operating system, file digests, file names, sizes), and
// installing it into a folder atomically.
//
// An archive is a gzip-compressed tar holding manifest.json, manifest.sig (Ed25519 over the
// manifest's bytes) and one files/<path> entry per file. The manifest lists every file with its
// SHA-256, size and mode, so the signature covers the contents too. Building is deterministic:
// the same manifest and files give the same bytes, so the archive's digest serves as its ETag.
//
// It imports nothing from agenthooks but the standard library.
package bundle
