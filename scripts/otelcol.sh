#!/usr/bin/env bash
# Build the test OpenTelemetry Collector (scripts/otelcol: the OTLP receiver and the file
# exporter, from the collector's own Go modules) once, and print the path of its executable.
# The telemetry tests start it on loopback, export to it over gRPC and HTTP and read back what it
# wrote. It is its own module, so agenthooks does not depend on the collector.
#
# It goes to ${AGENTHOOKS_TOOLS:-${XDG_CACHE_HOME:-~/.cache}/agenthooks-tools}/otelcol/KEY/otelcol,
# KEY being a hash of scripts/otelcol's go.mod, go.sum and main.go (a change rebuilds it), and is
# reused from there. The build happens in a temporary folder renamed into place, so a failed or
# interrupted build leaves nothing half-way. A cold build takes about 90 CPU-seconds.
#
# Exit status 1 when the build fails (the tests then fail, naming this script).
set -euo pipefail
src="$(cd "$(dirname "$0")/otelcol" && pwd)"
key=$(cat "$src/go.mod" "$src/go.sum" "$src/main.go" | sha256sum | cut -c1-16)
tools=${AGENTHOOKS_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/agenthooks-tools}
dest=$tools/otelcol/$key
exe=$dest/otelcol
if [ -x "$exe" ]; then
  echo "$exe"
  exit 0
fi
mkdir -p "$tools/otelcol"
tmp=$(mktemp -d "$tools/otelcol/.build-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
echo "otelcol.sh: building the test collector into $dest" >&2
if ! (cd "$src" && env GOFLAGS=-mod=mod GOOS= GOARCH= CGO_ENABLED=0 go build -trimpath -o "$tmp/otelcol" .) >&2; then
  echo "otelcol.sh: building scripts/otelcol failed" >&2
  exit 1
fi
if ! mv -T "$tmp" "$dest" 2>/dev/null && [ ! -x "$exe" ]; then
  echo "otelcol.sh: could not move the build into $dest" >&2
  exit 1
fi
echo "$exe"
