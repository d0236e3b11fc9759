# A throwaway PostgreSQL server for the tests and the benchmarks, sourced by
# scripts/test and bench/*/run.sh. `start_throwaway_postgres` installs
# Debian's PostgreSQL when it is missing (apt-get as root, else it names the
# command), makes a cluster with initdb in a temporary directory (as the
# `postgres` user when run as root), starts it with pg_ctl on 127.0.0.1 and a
# free port, and sets PATIENCE_PG_URL to a URL whose user may create
# databases. The cluster is stopped and removed at exit, whatever the exit.

postgres_bin() {
  local initdb
  initdb=$(ls /usr/lib/postgresql/*/bin/initdb 2>/dev/null | sort -V | tail -n 1)
  [ -n "$initdb" ] && dirname "$initdb"
}

ensure_postgres_installed() {
  if [ -n "$(postgres_bin)" ]; then
    return 0
  fi
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "installing PostgreSQL (apt-get)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq postgresql >/dev/null
  else
    echo "PostgreSQL is missing (no /usr/lib/postgresql/*/bin/initdb); install it with:" >&2
    echo "  sudo apt-get install -y postgresql" >&2
    return 1
  fi
}

# A TCP port nothing listens on at 127.0.0.1.
free_port() {
  local port
  for _ in $(seq 1 200); do
    port=$((20000 + RANDOM % 40000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "$port"
      return 0
    fi
  done
  echo "no free port found" >&2
  return 1
}

# Runs a PostgreSQL program as the cluster's owner, from / (the owner may
# not enter the directory the tests run from; every path given is absolute).
as_pg_owner() {
  if [ "$(id -u)" = 0 ]; then
    (cd / && runuser -u postgres -- "$@")
  else
    "$@"
  fi
}

stop_throwaway_postgres() {
  if [ -n "${PATIENCE_PG_DIR:-}" ] && [ -d "$PATIENCE_PG_DIR" ]; then
    as_pg_owner "$(postgres_bin)/pg_ctl" -D "$PATIENCE_PG_DIR/data" -m immediate -w stop \
      >/dev/null 2>&1 || true
    rm -rf "$PATIENCE_PG_DIR"
  fi
  PATIENCE_PG_DIR=
}

# start_throwaway_postgres [extra server settings, e.g. "-c fsync=off"]
start_throwaway_postgres() {
  ensure_postgres_installed
  local bin port settings="${1:-}"
  bin=$(postgres_bin)
  port=$(free_port)
  PATIENCE_PG_DIR=$(mktemp -d /tmp/patience-pg.XXXXXX)
  trap stop_throwaway_postgres EXIT
  chmod 755 "$PATIENCE_PG_DIR"
  printf 'patience\n' >"$PATIENCE_PG_DIR/password"
  if [ "$(id -u)" = 0 ]; then
    chown -R postgres "$PATIENCE_PG_DIR"
  fi
  as_pg_owner "$bin/initdb" -D "$PATIENCE_PG_DIR/data" -U patience \
    --pwfile="$PATIENCE_PG_DIR/password" --auth=scram-sha-256 --no-sync -E UTF8 \
    >"$PATIENCE_PG_DIR/initdb.log" 2>&1 || {
    cat "$PATIENCE_PG_DIR/initdb.log" >&2
    return 1
  }
  as_pg_owner "$bin/pg_ctl" -D "$PATIENCE_PG_DIR/data" -l "$PATIENCE_PG_DIR/server.log" -w \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $PATIENCE_PG_DIR -c max_connections=300 $settings" \
    start >/dev/null || {
    cat "$PATIENCE_PG_DIR/server.log" >&2
    return 1
  }
  export PATIENCE_PG_DIR
  export PATIENCE_PG_URL="postgres://patience:patience@127.0.0.1:$port/postgres"
  echo "PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port ($PATIENCE_PG_DIR)"
}

# A fresh database on the throwaway server; prints its URL.
new_postgres_database() {
  local name="$1"
  PGPASSWORD=patience PGOPTIONS="-c client_min_messages=warning" "$(postgres_bin)/psql" -q "$PATIENCE_PG_URL" \
    -c "DROP DATABASE IF EXISTS $name" -c "CREATE DATABASE $name" >/dev/null
  echo "${PATIENCE_PG_URL%/postgres}/$name"
}
