#!/usr/bin/env bash
# Start or stop a throwaway PostgreSQL server on loopback for the server's tests.
#   scripts/postgres.sh start DIR PORT   installs Debian's postgresql when missing, creates a
#                                        cluster in DIR, starts it on 127.0.0.1:PORT and prints
#                                        the database URL on its last line
#   scripts/postgres.sh stop DIR         stops it
set -euo pipefail
cmd=${1:?start or stop}; dir=${2:?data folder}

find_bin() {
  for d in /usr/lib/postgresql/*/bin; do
    if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then echo "$d"; return 0; fi
  done
  return 1
}

bin=$(find_bin || true)
if [ -z "$bin" ] && [ "$cmd" = start ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "postgres.sh: PostgreSQL is not installed and installing it needs root (apt-get install postgresql)" >&2
    exit 3
  fi
  echo "postgres.sh: installing Debian's postgresql" >&2
  export DEBIAN_FRONTEND=noninteractive
  (apt-get install -y -q --no-install-recommends postgresql >&2) || (apt-get update -q >&2 && apt-get install -y -q --no-install-recommends postgresql >&2)
  bin=$(find_bin)
fi

# initdb and postgres refuse to run as root: run them as the postgres user when we are root.
as_pg() {
  if [ "$(id -u)" = 0 ]; then
    id postgres >/dev/null 2>&1 || useradd --system --home-dir /var/lib/postgresql postgres
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

case $cmd in
start)
  port=${3:?port}
  mkdir -p "$dir"
  [ "$(id -u)" = 0 ] && chown postgres "$dir" 2>/dev/null || true
  chmod 700 "$dir"
  if [ ! -f "$dir/data/PG_VERSION" ]; then
    as_pg "$bin/initdb" -D "$dir/data" -U agenthooks --auth=trust -E UTF8 >/dev/null
  fi
  as_pg "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c max_connections=200" start >/dev/null
  as_pg "$bin/psql" -h 127.0.0.1 -p "$port" -U agenthooks -d postgres -qtAc \
    "SELECT 1 FROM pg_database WHERE datname='agenthooks_test'" | grep -q 1 ||
    as_pg "$bin/psql" -h 127.0.0.1 -p "$port" -U agenthooks -d postgres -qc "CREATE DATABASE agenthooks_test" >/dev/null
  echo "postgres://agenthooks@127.0.0.1:$port/agenthooks_test?sslmode=disable"
  ;;
stop)
  [ -n "$bin" ] && [ -f "$dir/data/postmaster.pid" ] && as_pg "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null || true
  ;;
*) echo "usage: $0 start DIR PORT | stop DIR" >&2; exit 2 ;;
esac
