#!/usr/bin/env bash
# Make sure Debian's Chromium and ChromeDriver are installed (for the dashboard's browser test)
# and print the chromedriver path.
set -euo pipefail
if ! command -v chromedriver >/dev/null || ! command -v chromium >/dev/null; then
  if [ "$(id -u)" != 0 ]; then
    echo "chromium.sh: Chromium is not installed and installing it needs root (apt-get install chromium chromium-driver)" >&2
    exit 3
  fi
  echo "chromium.sh: installing Debian's chromium and chromium-driver" >&2
  export DEBIAN_FRONTEND=noninteractive
  (apt-get install -y -q --no-install-recommends chromium chromium-driver >&2) ||
    (apt-get update -q >&2 && apt-get install -y -q --no-install-recommends chromium chromium-driver >&2)
fi
command -v chromedriver
