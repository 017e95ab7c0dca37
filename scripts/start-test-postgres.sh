#!/usr/bin/env bash
# Starts a throwaway PostgreSQL cluster for the test suite: initdb in a temp folder, listening on
# 127.0.0.1 on a free port, trust auth for the local superuser "postgres". Debian's PostgreSQL
# (apt-get install postgresql) provides the binaries; as root the server runs as the postgres user.
#
#   pg_env="$(bash scripts/start-test-postgres.sh)" && eval "$pg_env"
#       -> exports TEST_DATABASE_URL and TEST_POSTGRES_DATA (an assignment first, so a failure is not
#          swallowed by eval under set -e)
#   bash scripts/start-test-postgres.sh --stop DIR   # stops the cluster in DIR and removes it
#
# Progress goes to stderr; stdout carries only the export lines.
set -euo pipefail

log() { echo "[start-test-postgres] $*" >&2; }

find_bindir() {
  local dir
  if [[ -n "${PG_BINDIR:-}" && -x "${PG_BINDIR}/postgres" ]]; then echo "$PG_BINDIR"; return; fi
  for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [[ -x "$dir/postgres" && -x "$dir/initdb" && -x "$dir/pg_ctl" ]]; then echo "$dir"; return; fi
  done
  return 1
}

# Runs a command as the cluster's owner (postgres refuses to run as root).
as_owner() {
  if [[ "$(id -u)" == "0" ]]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

main() {
  local bindir
  if ! bindir="$(find_bindir)"; then
    log "PostgreSQL server binaries not found under /usr/lib/postgresql/*/bin (apt-get install -y postgresql)"
    return 1
  fi

  if [[ "${1:-}" == "--stop" ]]; then
    local dir="${2:-${TEST_POSTGRES_DATA:-}}"
    if [[ -z "$dir" || ! -f "$dir/PG_VERSION" ]]; then
      log "usage: $0 --stop DATA_DIR (no cluster at '${dir}')"
      return 1
    fi
    as_owner "$bindir/pg_ctl" -D "$dir" -m fast -w stop >&2 || true
    rm -rf "$dir"
    log "stopped and removed $dir"
    return 0
  fi

  if [[ "$(id -u)" == "0" ]] && ! id postgres >/dev/null 2>&1; then
    log "running as root but there is no 'postgres' user to own the cluster"
    return 1
  fi

  local data port
  data="$(mktemp -d "${TMPDIR:-/tmp}/kindred-pg-XXXXXX")"
  if [[ "$(id -u)" == "0" ]]; then chown postgres: "$data"; fi
  chmod 700 "$data"

  log "initdb ($bindir) in $data"
  as_owner "$bindir/initdb" -D "$data" --username=postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >/dev/null 2>"$data.initdb.log" ||
    as_owner "$bindir/initdb" -D "$data" --username=postgres --auth=trust --encoding=UTF8 --no-locale >/dev/null 2>>"$data.initdb.log" || {
      cat "$data.initdb.log" >&2
      return 1
    }
  rm -f "$data.initdb.log"

  # A free port on loopback, chosen by the OS (node is always there: the project needs it).
  port="$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"

  # Throwaway data: durability settings off for speed; the socket lives in the data folder.
  as_owner "$bindir/pg_ctl" -D "$data" -l "$data/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $data -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
    start >&2 || {
      cat "$data/server.log" >&2 || true
      return 1
    }

  TEST_DATABASE_URL="postgres://postgres@127.0.0.1:${port}/postgres"
  TEST_POSTGRES_DATA="$data"
  log "PostgreSQL $("$bindir/postgres" --version | awk '{print $3}') is running at $TEST_DATABASE_URL"
  log "stop it with: bash scripts/start-test-postgres.sh --stop $data"
  echo "export TEST_DATABASE_URL=$TEST_DATABASE_URL"
  echo "export TEST_POSTGRES_DATA=$TEST_POSTGRES_DATA"
}

main "$@"
