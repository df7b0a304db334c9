#!/usr/bin/env bash
# Run this module's Windows tests on Linux under Wine, from Debian's packages.
#
#   scripts/wine.sh [go test flags] [packages]   GOOS=windows go test -exec "scripts/wine.sh exec"
#                                                for the packages whose behaviour differs on
#                                                Windows (the list below) or the ones given
#   scripts/wine.sh setup                        only install and prepare; prints the prefix
#   scripts/wine.sh exec PROGRAM [ARGS]          run one Windows program in the prepared prefix
#                                                (go test's -exec wrapper)
#
# The first run installs Debian's wine and the x86_64 mingw-w64 C compiler with apt when they are
# missing (that needs root; without it the script says so and exits 3), then prepares a Wine
# prefix of its own under the tools cache, so nothing touches ~/.wine:
#
#   - Go's runtime (since 1.22) needs ProcessPrng from bcryptprimitives.dll, which Debian's Wine 8
#     lacks, so a test binary dies at start. A tiny DLL that exports ProcessPrng by calling
#     BCryptGenRandom is built with mingw-w64 and put into the prefix's system32, loaded native.
#   - Wine 8 does not implement FileDispositionInformationEx (its NtSetInformationFile answers
#     STATUS_NOT_IMPLEMENTED, "Invalid function"), which os.RemoveAll uses on Windows and does not
#     fall back from for that status, so every t.TempDir cleanup fails. The go command is given an
#     overlay that adds one file to the standard library's internal/syscall/windows package: when
#     AGENTHOOKS_WINE=1 (set by this wrapper only) it turns on the package's own switch for the
#     older deletion (FileDispositionInfo, which Wine has). Binaries built without this script,
#     and every run on real Windows, are untouched.
#
# Programs run with AGENTHOOKS_WINE=1 in their environment, so a test can tell Wine from Windows
# and skip what Wine cannot do (Wine has no PowerShell), saying why.
#
#   AGENTHOOKS_TOOLS  where tools are cached (default ~/.cache/agenthooks-tools); the prefix and
#                     the DLL go in wine/
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")

# Without packages: the packages whose behaviour differs on Windows and whose tests run there:
# process trees and cmd.exe command lines (runner), paths, enterprise locations and the trust
# store (config), the protected paths of agents' configs as bash on Windows writes them
# (guard/policy), reading PowerShell and cmd commands (guard/winshell) and the shell, secret and
# SQL readers the guards share (guard/shell, guard/secrets, guard/sqlc); then, from the CLI, the
# tests that are Windows' own or platform-neutral (doctor's Windows canary and PATH lookup,
# Codex's review hashes, every command's example), and from the engine those about the user's
# home (which Windows takes from USERPROFILE, not HOME), its trust store, and the paths of the
# run-time dedupe (engine.Repeat). The rest of the CLI's and the engine's tests run hooks
# through sh, and the guard package's corpora are POSIX paths: they do not run here.
packages=(./runner/ ./config/ ./guard/policy/ ./guard/winshell/ ./guard/shell/ ./guard/secrets/ ./guard/sqlc/)
cli_tests='Windows|TestCodexHook|TestEveryCommandHasAnExample|TestExampleCheck'
engine_tests='TestEmptyHomeIgnoresAPlantedTrustStore|TestRelativeHomeIsRefused|TestOwnEntry'

tools=${AGENTHOOKS_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/agenthooks-tools}
base="$tools/wine"
prefix="$base/prefix"

find_wine() {
  for w in /usr/lib/wine/wine64 /usr/bin/wine64 /usr/bin/wine; do
    if [ -x "$w" ]; then echo "$w"; return 0; fi
  done
  return 1
}

wine_env() {
  export WINEPREFIX="$prefix" WINEARCH=win64 WINEDEBUG=-all AGENTHOOKS_WINE=1
  # The ProcessPrng DLL first; no Mono or Gecko installer dialogs when the prefix is made.
  export WINEDLLOVERRIDES="bcryptprimitives=n,b;mscoree=;mshtml="
  export DISPLAY=
}

if [ "${1:-}" = exec ]; then
  shift
  wine=$(find_wine) || { echo "wine.sh: Wine is not installed (run scripts/wine.sh setup)" >&2; exit 3; }
  wine_env
  # The program runs in a process group of its own, killed when it ends: a process a test left
  # behind (Windows has no process groups to end it with) would hold go test's pipes forever.
  set -m
  "$wine" "$@" &
  pid=$!
  set +e
  wait "$pid"
  rc=$?
  kill -KILL -- "-$pid" 2>/dev/null
  exit "$rc"
fi

install_deps() {
  local need=()
  find_wine >/dev/null || need+=(wine wine64)
  command -v x86_64-w64-mingw32-gcc >/dev/null || need+=(gcc-mingw-w64-x86-64-win32)
  [ ${#need[@]} -eq 0 ] && return 0
  if [ "$(id -u)" != 0 ]; then
    echo "wine.sh: ${need[*]} not installed and installing needs root (apt-get install ${need[*]})" >&2
    exit 3
  fi
  echo "wine.sh: installing Debian's ${need[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  (apt-get install -y -q --no-install-recommends "${need[@]}" >&2) ||
    (apt-get update -q >&2 && apt-get install -y -q --no-install-recommends "${need[@]}" >&2) || {
    echo "wine.sh: apt-get could not install ${need[*]}" >&2
    exit 3
  }
  find_wine >/dev/null && command -v x86_64-w64-mingw32-gcc >/dev/null || {
    echo "wine.sh: apt-get ran, but wine64 or x86_64-w64-mingw32-gcc is still missing" >&2
    exit 3
  }
}

# The DLL's source. Go calls ProcessPrng(buf, len) and treats a FALSE return as fatal.
prng_c='#include <windows.h>
#include <bcrypt.h>

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
	while (len > 0) {
		ULONG n = len > 0x40000000 ? 0x40000000 : (ULONG)len;
		if (BCryptGenRandom(NULL, data, n, BCRYPT_USE_SYSTEM_PREFERRED_RNG) != 0)
			return FALSE;
		data += n;
		len -= n;
	}
	return TRUE;
}
'

# The overlay's file, added to internal/syscall/windows (which may import only syscall and
# below): the package's TestDeleteatFallback switch, on under this wrapper only.
overlay_go='package windows

import "syscall"

// Added by the agenthooks repository'"'"'s scripts/wine.sh through go build -overlay: Wine 8 does
// not implement FileDispositionInformationEx, so use the deletion older Windows versions get.
func init() {
	if v, _ := syscall.Getenv("AGENTHOOKS_WINE"); v == "1" {
		TestDeleteatFallback = true
	}
}
'

setup() {
  install_deps
  local wine
  wine=$(find_wine)
  mkdir -p "$base"
  exec 9>"$base/.lock"
  flock 9
  local key
  key=$(printf '%s\n%s\n%s' "$prng_c" "$overlay_go" "$(go env GOROOT)" | sha256sum | cut -c1-16)
  if [ "$(cat "$base/ready" 2>/dev/null)" != "$key" ]; then
    echo "wine.sh: preparing the Wine prefix $prefix" >&2
    rm -rf "$prefix" "$base/build"
    mkdir -p "$base/build"
    printf '%s' "$prng_c" >"$base/build/prng.c"
    printf 'LIBRARY bcryptprimitives\nEXPORTS\n\tProcessPrng\n' >"$base/build/prng.def"
    x86_64-w64-mingw32-gcc -shared -O2 -s -o "$base/build/bcryptprimitives.dll" \
      "$base/build/prng.c" "$base/build/prng.def" -lbcrypt
    wine_env
    # wineboot makes the prefix (registry, system32 with Wine's own DLLs); then ours replaces
    # the placeholder bcryptprimitives.dll.
    "$wine" wineboot --init >/dev/null 2>&1 || true
    wineserver=$(dirname "$wine")/wineserver
    [ -x "$wineserver" ] || wineserver=$(command -v wineserver || echo wineserver)
    "$wineserver" -w 2>/dev/null || true
    [ -d "$prefix/drive_c/windows/system32" ] || {
      echo "wine.sh: wineboot did not make $prefix" >&2
      exit 1
    }
    cp "$base/build/bcryptprimitives.dll" "$prefix/drive_c/windows/system32/bcryptprimitives.dll"
    local goroot
    goroot=$(go env GOROOT)
    printf '%s' "$overlay_go" >"$base/build/zz_agenthooks_wine.go"
    printf '{"Replace":{"%s":"%s"}}\n' "$goroot/src/internal/syscall/windows/zz_agenthooks_wine.go" \
      "$base/build/zz_agenthooks_wine.go" >"$base/overlay.json"
    echo "$key" >"$base/ready"
  fi
  flock -u 9
}

setup
if [ "${1:-}" = setup ]; then
  echo "$prefix"
  exit 0
fi

# go test flags first, then packages (./... or an import path). Without packages, the lists
# above.
wintest() {
  GOOS=windows GOARCH=amd64 CGO_ENABLED=0 go test -overlay "$base/overlay.json" \
    -exec "'$here/wine.sh' exec" "$@"
}
args=("$@")
have_pkg=
for a in "${args[@]}"; do
  case $a in ./*|github.com/*) have_pkg=1 ;; esac
done
cd "$root"
if [ -n "$have_pkg" ]; then
  wintest "${args[@]}"
else
  wintest "${args[@]}" "${packages[@]}"
  wintest "${args[@]}" -run "$cli_tests" ./internal/cli/
  wintest "${args[@]}" -run "$engine_tests" ./engine/
fi
