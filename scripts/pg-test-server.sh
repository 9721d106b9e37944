#!/usr/bin/env bash
# A throwaway PostgreSQL server for the test suite, on loopback only.
#
#   scripts/pg-test-server.sh [start]   install postgresql when missing (Debian package), start
#                                       the cluster when it is not running, print its URL
#   scripts/pg-test-server.sh stop      stop it (the data stays for a fast restart)
#   scripts/pg-test-server.sh status    exit 0 when it is running
#
# The cluster lives in $TURNIR_PG_DIR (default /tmp/turnir-pg-test), listens on 127.0.0.1 at
# $TURNIR_PG_PORT with trust authentication, and runs as the `postgres` system user when run as
# root (initdb refuses root), else as the calling user. The default port, 25432, is below
# Linux's ephemeral ports (32768-60999), from which every free port a test asks for is drawn:
# a fixed port among them can be held by a test server of a parallel run (it happened, on
# 54370: the server could not start for four runs in a row). It is tuned for tests,
# not for data: fsync is off.
set -euo pipefail
PORT="${TURNIR_PG_PORT:-25432}"
DIR="${TURNIR_PG_DIR:-/tmp/turnir-pg-test}"
DATA="$DIR/data"
LOG="$DIR/server.log"
URL="postgresql://postgres@127.0.0.1:${PORT}/postgres"
action="${1:-start}"

find_bin() {
  local found
  found="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
  [ -n "$found" ] && [ -x "$found/pg_ctl" ] && echo "$found"
}

as_postgres() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

running() {
  local bin
  bin="$(find_bin)" || return 1
  [ -f "$DATA/PG_VERSION" ] && as_postgres "$bin/pg_ctl" -D "$DATA" status >/dev/null 2>&1
}

case "$action" in
  status)
    running
    exit $?
    ;;
  stop)
    if running; then
      as_postgres "$(find_bin)/pg_ctl" -D "$DATA" -m fast -w stop >/dev/null
    fi
    exit 0
    ;;
  start) ;;
  *)
    echo "usage: $0 [start|stop|status]" >&2
    exit 2
    ;;
esac

# One start at a time: parallel test runs (several checkouts, or pytest-xdist workers) that
# find the server stopped must not both run initdb / pg_ctl start on the same folder. (The
# server is started with the lock's descriptor closed, so it does not hold the lock.)
mkdir -p "$(dirname "$DIR")"
if { exec 9>>"$DIR.lock"; } 2>/dev/null; then flock 9; fi

if ! BIN="$(find_bin)"; then
  if [ "$(id -u)" != 0 ]; then
    echo "PostgreSQL is not installed (run as root, or: sudo apt-get install postgresql)" >&2
    exit 1
  fi
  echo "installing postgresql" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq --no-install-recommends postgresql >/dev/null
  BIN="$(find_bin)"
fi

# A cluster left running on another port (an older default, another TURNIR_PG_PORT) is
# restarted on this one: the URL printed below must reach it.
if running && [ "$(sed -n 4p "$DATA/postmaster.pid" 2>/dev/null)" != "$PORT" ]; then
  as_postgres "$BIN/pg_ctl" -D "$DATA" -m fast -w stop >/dev/null 9>&-
fi
if ! running; then
  mkdir -p "$DIR"
  if [ "$(id -u)" = 0 ]; then chown postgres: "$DIR"; fi
  if [ ! -f "$DATA/PG_VERSION" ]; then
    as_postgres "$BIN/initdb" -D "$DATA" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 \
      >"$DIR/initdb.log" 2>&1 9>&- || { cat "$DIR/initdb.log" >&2; exit 1; }
  fi
  as_postgres "$BIN/pg_ctl" -D "$DATA" -l "$LOG" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $PORT -k $DIR -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
    start >/dev/null 9>&- || { tail -n 20 "$LOG" >&2; exit 1; }
fi
echo "$URL"
