#!/usr/bin/env bash
# Durability check of `patience serve`: kill -9 under load loses no
# acknowledged move and applies none twice; two tabs sending the same change
# at once apply it once. Builds the server and the check in release mode.
# Extra arguments go to the check, e.g.
#   bench/durability/run.sh --clients 16 --rounds 5 --pairs 500
#   bench/durability/run.sh --db postgres://USER:PASS@HOST/DB --instances 3
# `--table` runs SQLite with one server and PostgreSQL with three (one killed
# a round, on a throwaway PostgreSQL server of scripts/lib/postgres.sh unless
# --db names one) and writes their table into bench/durability/README.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
. bench/lib/table.sh
table_args "$@"
cargo build --release -q -p patience-cli
cargo build --release -q -p patience-server --example durability
check=(target/release/examples/durability --bin target/release/patience)
if [ "$table" = 0 ]; then
  exec "${check[@]}" ${db:+--db "$db"} "${args[@]}"
fi
. scripts/lib/postgres.sh
if [ -z "$db" ]; then
  start_throwaway_postgres
  db=$(new_postgres_database durability)
fi
run() { # label, then the check's arguments
  local label="$1"
  shift
  niced "${check[@]}" "${args[@]}" "$@"
  table_row "$label" "$(echo "$out" | sed -n 's/^kill -9: \(.*\)$/\1/p')" \
    "$(echo "$out" | sed -n 's/^two tabs: \(.*\)$/\1/p')"
}
run "SQLite, 1 server"
run "PostgreSQL, 3 servers" --db "$db" --instances 3
write_table bench/durability/README.md "stores table: bench/durability/run.sh --table" \
  "\`bench/durability/run.sh --table ${args[*]}\` on $(nproc) cores (PostgreSQL: one of the three servers killed a round, restarted on the same database; the two tabs on two servers):" \
  store "kill -9 under load" "two tabs at once"
