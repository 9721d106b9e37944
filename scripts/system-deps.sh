#!/usr/bin/env bash
# Install the Debian packages the test suite needs when they are missing (make test calls this).
# Nothing is downloaded at test time: the tests only use what is installed here.
set -euo pipefail
need=()
[ -x /usr/games/stockfish ] || need+=(stockfish)
ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || need+=(postgresql)
[ -x /usr/bin/chromium ] || need+=(chromium)  # scripts/screenshots.py
[ -x /usr/bin/chromium-headless-shell ] || need+=(chromium-headless-shell)  # browser tests
command -v wrk >/dev/null || need+=(wrk)
[ -x /usr/sbin/nginx ] || need+=(nginx)  # tests/deploy: the nginx sample run for real
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "missing system packages: ${need[*]} (run as root or: sudo apt-get install ${need[*]})" >&2
    exit 1
  fi
  echo "installing system packages: ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  # The tests run nginx themselves on free ports; Debian's nginx service is not wanted here.
  if [[ " ${need[*]} " == *" nginx "* ]] && command -v systemctl >/dev/null; then
    systemctl disable --now nginx >/dev/null 2>&1 || true
  fi
fi
