#!/usr/bin/env bash
# Build the npm packages: agenthooks (the launcher) and one @agenthooks/<platform>-<arch> package
# per platform holding the native binaries, then `npm pack` each into OUT.
#
#   scripts/npm-pack.sh [--out OUT] [--dist DIST]        from goreleaser's dist/ (default ./dist):
#                                                        every platform, at the release's version
#   scripts/npm-pack.sh [--out OUT] --local VERSION      the host's platform only, built here with
#                                                        go build (for tests and trying it out)
#
# The platforms are the agenthooks package's optionalDependencies (npm/agenthooks/package.json);
# the platform packages are filled from npm/platform/*.in. OUT defaults to DIST/npm. Publish
# with `npm publish OUT/<file>.tgz` for each platform package first, then agenthooks.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

dist=dist out= local=
while [ $# -gt 0 ]; do
  case $1 in
    --dist) dist=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --local) local=$2; shift 2 ;;
    *) echo "npm-pack.sh: unknown argument $1 (see the comment at the top of the script)" >&2; exit 2 ;;
  esac
done
out=${out:-$dist/npm}
command -v npm >/dev/null || { echo "npm-pack.sh: npm is not installed" >&2; exit 3; }

if [ -n "$local" ]; then
  version=${local#v}
else
  [ -f "$dist/metadata.json" ] || { echo "npm-pack.sh: no $dist/metadata.json: run scripts/goreleaser.sh first, or use --local VERSION" >&2; exit 2; }
  version=$(node -e 'process.stdout.write(require(require("path").resolve(process.argv[1])).version)' "$dist/metadata.json")
fi

mkdir -p "$out"
out=$(cd "$out" && pwd)
stage=$(mktemp -d "${TMPDIR:-/tmp}/agenthooks-npm.XXXXXX")
trap 'rm -rf "$stage"' EXIT

# The main package, at this version, depending on each platform package at the same version.
cp -R npm/agenthooks "$stage/agenthooks"
cp LICENSE "$stage/agenthooks/"
platforms=$(node -e '
  const fs = require("fs"), file = process.argv[1], v = process.argv[2];
  const p = JSON.parse(fs.readFileSync(file, "utf8"));
  p.version = v;
  for (const k of Object.keys(p.optionalDependencies)) p.optionalDependencies[k] = v;
  fs.writeFileSync(file, JSON.stringify(p, null, 2) + "\n");
  console.log(Object.keys(p.optionalDependencies).map(k => k.replace("@agenthooks/", "")).join(" "));
' "$stage/agenthooks/package.json" "$version")

host=$(node -e 'process.stdout.write(process.platform + "-" + process.arch)')
packed=()
for plat in $platforms; do
  os=${plat%-*} cpu=${plat#*-}
  case $os in win32) goos=windows ;; *) goos=$os ;; esac
  case $cpu in x64) goarch=amd64 ;; *) goarch=$cpu ;; esac
  ext=
  [ "$goos" = windows ] && ext=.exe
  dir=$stage/$plat
  mkdir -p "$dir/bin"
  if [ -n "$local" ]; then
    [ "$plat" = "$host" ] || continue
    for b in agenthooks agenthooks-admin agenthooks-scan agenthooks-guard; do
      CGO_ENABLED=0 GOOS=$goos GOARCH=$goarch go build -trimpath \
        -ldflags "-s -w -X github.com/agenthooks/agenthooks/internal/buildinfo.version=$version" \
        -o "$dir/bin/$b$ext" "./cmd/$b"
    done
  else
    archive=$(ls "$dist"/agenthooks_"$version"_"$goos"_"$goarch".* 2>/dev/null | grep -E '\.(tar\.gz|zip)$' || true)
    [ -n "$archive" ] || { echo "npm-pack.sh: no archive for $goos/$goarch in $dist" >&2; exit 2; }
    case $archive in
      *.zip) unzip -q -o "$archive" "agenthooks$ext" "agenthooks-admin$ext" "agenthooks-scan$ext" "agenthooks-guard$ext" -d "$dir/bin" ;;
      *) tar -xzf "$archive" -C "$dir/bin" agenthooks agenthooks-admin agenthooks-scan agenthooks-guard ;;
    esac
  fi
  for f in package.json README.md; do
    sed -e "s/@PLATFORM@/$plat/g" -e "s/@VERSION@/$version/g" -e "s/@OS@/$os/g" -e "s/@CPU@/$cpu/g" \
      "npm/platform/$f.in" > "$dir/$f"
  done
  cp LICENSE "$dir/"
  chmod 755 "$dir/bin/"*
  packed+=("$dir")
done
[ ${#packed[@]} -gt 0 ] || { echo "npm-pack.sh: no platform package built" >&2; exit 2; }
packed+=("$stage/agenthooks")

for dir in "${packed[@]}"; do
  (cd "$dir" && npm pack --silent --pack-destination "$out" >/dev/null)
done
ls "$out"/*.tgz
