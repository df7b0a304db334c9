#!/bin/sh
# Install agenthooks, agenthooks-admin, agenthooks-scan and agenthooks-guard from a release, checking the archive
# against the release's SHA-256 checksums.
#
#   curl -fsSL https://github.com/agenthooks/agenthooks/releases/latest/download/install.sh | sh
#
# Environment:
#   AGENTHOOKS_VERSION      a release (1.2.3) instead of the latest
#   AGENTHOOKS_INSTALL_DIR  where the binaries go (default ~/.local/bin)
#   AGENTHOOKS_BASE_URL     where the archives and checksums.txt are (default: the GitHub release)
#   AGENTHOOKS_DOWNLOADER   curl or wget (default: curl if installed, else wget)
#
# The checksums come from the same place as the archive: they catch a corrupted or swapped
# archive on a mirror or in transit, not a compromised release.
set -eu

repo=https://github.com/agenthooks/agenthooks

say() { printf 'agenthooks install: %s\n' "$*" >&2; }
fail() { say "$*"; exit 1; }

detect_os() {
  case $(uname -s) in
    Linux) echo linux ;;
    Darwin) echo darwin ;;
    MINGW* | MSYS* | CYGWIN* | Windows_NT)
      fail "this script installs on Linux and macOS; on Windows use 'scoop install agenthooks' or 'npm install -g agenthooks'" ;;
    *) fail "no release for $(uname -s): build from source with 'go install github.com/agenthooks/agenthooks/cmd/...@latest'" ;;
  esac
}

detect_arch() {
  m=$(uname -m)
  case $m in
    x86_64 | amd64)
      # A shell translated by Rosetta on Apple silicon reports x86_64: install the native build.
      if [ "$(uname -s)" = Darwin ] && [ "$(sysctl -n sysctl.proc_translated 2>/dev/null || echo 0)" = 1 ]; then
        echo arm64
      else
        echo amd64
      fi ;;
    aarch64 | arm64) echo arm64 ;;
    *) fail "no release for the $m processor: build from source with 'go install github.com/agenthooks/agenthooks/cmd/...@latest'" ;;
  esac
}

pick_downloader() {
  case ${AGENTHOOKS_DOWNLOADER:-} in
    curl | wget)
      command -v "$AGENTHOOKS_DOWNLOADER" >/dev/null 2>&1 || fail "AGENTHOOKS_DOWNLOADER=$AGENTHOOKS_DOWNLOADER, which is not installed"
      echo "$AGENTHOOKS_DOWNLOADER" ;;
    "")
      if command -v curl >/dev/null 2>&1; then echo curl
      elif command -v wget >/dev/null 2>&1; then echo wget
      else fail "needs curl or wget to download the release"
      fi ;;
    *) fail "AGENTHOOKS_DOWNLOADER must be curl or wget, not '$AGENTHOOKS_DOWNLOADER'" ;;
  esac
}

# download URL FILE
download() {
  case $downloader in
    # From an https base, refuse to follow a redirect to plain http.
    curl) curl --proto "$protos" --proto-redir "$protos" -fsSL --retry 2 -o "$2" "$1" ;;
    wget) wget -q $wget_https -O "$2" "$1" ;;
  esac || fail "could not download $1"
}

sha256() {
  if command -v sha256sum >/dev/null 2>&1; then sha256sum "$1" | cut -d' ' -f1
  elif command -v shasum >/dev/null 2>&1; then shasum -a 256 "$1" | cut -d' ' -f1
  else fail "needs sha256sum or shasum to check the download"
  fi
}

os=$(detect_os)
arch=$(detect_arch)
downloader=$(pick_downloader)
if [ -n "${AGENTHOOKS_BASE_URL:-}" ]; then
  base=${AGENTHOOKS_BASE_URL%/}
elif [ -n "${AGENTHOOKS_VERSION:-}" ]; then
  base=$repo/releases/download/v${AGENTHOOKS_VERSION#v}
else
  base=$repo/releases/latest/download
fi
dir=${AGENTHOOKS_INSTALL_DIR:-$HOME/.local/bin}
case $base in
  https://*)
    protos==https wget_https=
    # GNU wget can refuse a redirect to http; BusyBox's wget has no such option.
    if wget --help 2>&1 | grep -q -- --https-only; then wget_https=--https-only; fi ;;
  http://*) protos==http,https wget_https= ;;
  *) fail "AGENTHOOKS_BASE_URL must be an http or https URL, not $base" ;;
esac

tmp=$(mktemp -d 2>/dev/null || mktemp -d -t agenthooks)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

download "$base/checksums.txt" "$tmp/checksums.txt"
# checksums.txt names every archive of the release (agenthooks_1.2.3_linux_amd64.tar.gz): the one
# for this machine tells the version too.
line=$(awk -v s="_${os}_${arch}.tar.gz" 'length($2) > length(s) && substr($2, length($2) - length(s) + 1) == s' "$tmp/checksums.txt")
case $line in
  "") fail "$base/checksums.txt lists no archive for $os/$arch" ;;
  *"
"*) fail "$base/checksums.txt lists more than one archive for $os/$arch" ;;
esac
want=${line%% *}
archive=${line##* }
case $archive in
  agenthooks_*_"$os"_"$arch".tar.gz) ;;
  *) fail "unexpected archive name in checksums.txt: $archive" ;;
esac
case $archive in
  */* | *..*) fail "unexpected archive name in checksums.txt: $archive" ;;
esac
case $want in
  *[!0-9a-f]*) fail "malformed checksum for $archive in checksums.txt" ;;
esac
[ ${#want} -eq 64 ] || fail "malformed checksum for $archive in checksums.txt"

say "downloading $archive"
download "$base/$archive" "$tmp/$archive"
got=$(sha256 "$tmp/$archive")
if [ "$got" != "$want" ]; then
  fail "checksum mismatch for $archive: checksums.txt says $want, the download is $got. Nothing was installed."
fi

mkdir "$tmp/x"
tar -xzf "$tmp/$archive" -C "$tmp/x" || fail "could not unpack $archive"
for b in agenthooks agenthooks-admin agenthooks-scan agenthooks-guard; do
  [ -f "$tmp/x/$b" ] || fail "$archive has no $b. Nothing was installed."
done

mkdir -p "$dir" || fail "could not create $dir"
for b in agenthooks agenthooks-admin agenthooks-scan agenthooks-guard; do
  # Copy beside the target, then rename: a running agent never sees a half-written binary.
  cp "$tmp/x/$b" "$dir/.$b.new" && chmod 755 "$dir/.$b.new" && mv -f "$dir/.$b.new" "$dir/$b" ||
    { rm -f "$dir/.$b.new"; fail "could not install $b into $dir"; }
done
say "installed $("$dir/agenthooks" --version 2>/dev/null | head -n 1 || echo agenthooks) into $dir"

case ":${PATH:-}:" in
  *":$dir:"*) ;;
  *)
    say "$dir is not on your PATH. Add it, for example in ~/.profile or ~/.zshrc:"
    say "  export PATH=\"$dir:\$PATH\"" ;;
esac
say "next: agenthooks install --agent claude (or cursor, codex, gemini)"
