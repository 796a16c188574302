#!/usr/bin/env bash
# Starts a throwaway PostgreSQL server for the store tests and prints its URL.
#
# Installs nothing: it uses the binaries of Debian's `postgresql` package
# (/usr/lib/postgresql/<version>/bin; set PG_BIN to use others). It creates a cluster in a
# fresh temp dir (trust auth, loopback only, fsync off: test data only), starts it on a free
# 127.0.0.1 port, creates the database `delve_test`, then writes the URL to stdout and to
# $DELVE_PG_URL_FILE (default /tmp/delve-pg-url); the cluster dir goes to "$DELVE_PG_URL_FILE.dir".
# As root the server runs as the `postgres` user (initdb refuses root).
#
#   DELVE_PG_URL="$(.ci/postgres.sh)" && export DELVE_PG_URL   # start
#   source .ci/postgres.sh                                     # start and export DELVE_PG_URL
#   .ci/postgres.sh stop [cluster-dir]                         # stop it and remove its files

_delve_pg_main() {
  set -euo pipefail
  local url_file="${DELVE_PG_URL_FILE:-/tmp/delve-pg-url}"

  log() { echo "postgres.sh: $*" >&2; }

  find_bin() {
    local dir="${PG_BIN:-}"
    if [[ -z "$dir" ]]; then
      dir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
    fi
    if [[ -z "$dir" || ! -x "$dir/initdb" ]]; then
      log "no PostgreSQL binaries in ${PG_BIN:-/usr/lib/postgresql/*/bin}; install them: apt-get install -y postgresql"
      return 1
    fi
    echo "$dir"
  }

  # Runs a command as the cluster owner: `postgres` when we are root, ourselves otherwise.
  as_owner() {
    if [[ "$(id -u)" -eq 0 ]]; then
      if command -v runuser >/dev/null 2>&1; then
        runuser -u postgres -- "$@"
      else
        su postgres -s /bin/sh -c "$(printf '%q ' "$@")"
      fi
    else
      "$@"
    fi
  }

  port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

  stop_cluster() {
    local dir="${1:-}"
    if [[ -z "$dir" && -f "$url_file.dir" ]]; then dir="$(cat "$url_file.dir")"; fi
    if [[ -z "$dir" || ! -d "$dir/data" ]]; then
      log "no cluster to stop"
      return 0
    fi
    local bin
    bin="$(find_bin)" || return 1
    as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    rm -rf "$dir"
    if [[ -f "$url_file.dir" && "$(cat "$url_file.dir")" == "$dir" ]]; then
      rm -f "$url_file" "$url_file.dir"
    fi
    log "stopped and removed $dir"
  }

  if [[ "${1:-}" == "stop" ]]; then
    stop_cluster "${2:-}"
    return 0
  fi

  local bin dir
  # Every step checks its status: when this file is sourced inside a condition, bash
  # ignores `set -e`.
  bin="$(find_bin)" || return 1
  if [[ "$(id -u)" -eq 0 ]] && ! id postgres >/dev/null 2>&1; then
    log "running as root but there is no 'postgres' user (the postgresql package creates it)"
    return 1
  fi
  dir="$(mktemp -d "${TMPDIR:-/tmp}/delve-pg.XXXXXX")" || return 1
  chmod 755 "$dir" || return 1
  if [[ "$(id -u)" -eq 0 ]]; then chown postgres: "$dir" || return 1; fi

  as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --locale=C \
    --no-sync >"$dir/initdb.log" 2>&1 || {
    log "initdb failed:"
    cat "$dir/initdb.log" >&2
    rm -rf "$dir"
    return 1
  }

  # A port can be taken between the check and the start: try a few.
  local port="" attempt
  for attempt in 1 2 3 4 5 6 7 8; do
    local candidate=$((20000 + RANDOM % 40000))
    if port_in_use "$candidate"; then continue; fi
    if as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
      -o "-p $candidate -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
      start >/dev/null 2>&1; then
      port="$candidate"
      break
    fi
    log "start on port $candidate failed (attempt $attempt)"
  done
  if [[ -z "$port" ]]; then
    log "could not start the server; its log:"
    cat "$dir/server.log" >&2 || true
    rm -rf "$dir"
    return 1
  fi

  if ! as_owner "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres delve_test; then
    log "createdb failed"
    as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    rm -rf "$dir"
    return 1
  fi

  local url="postgresql://postgres@127.0.0.1:$port/delve_test"
  printf '%s\n' "$url" >"$url_file"
  printf '%s\n' "$dir" >"$url_file.dir"
  log "PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port, cluster $dir (stop: .ci/postgres.sh stop $dir)"
  printf '%s\n' "$url"
}

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  _delve_pg_main "$@" # executed: its status is the script's
elif [[ "${1:-}" == "stop" ]]; then
  (_delve_pg_main "$@")
  unset -f _delve_pg_main
else
  # Sourced: run in a subshell so `set -e` and failures cannot end the caller's shell.
  if DELVE_PG_URL="$( (_delve_pg_main "$@") )"; then export DELVE_PG_URL; fi
  unset -f _delve_pg_main
fi
