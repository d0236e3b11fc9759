#!/usr/bin/env bash
# Load benchmark of the site's API: many games at once on loopback, in release
# mode. Prints moves per second, p99 latency and the largest WAL seen, then
# checks that the database holds every acknowledged move. Extra arguments go
# to the benchmark, e.g.
#   bench/load/run.sh --clients 32 --requests 30000
#   bench/load/run.sh --db postgres://USER:PASS@HOST/DB --instances 3
# `--table` runs the three stores side by side (SQLite with one server,
# PostgreSQL with one and with three, on a throwaway PostgreSQL server of
# scripts/lib/postgres.sh unless --db names one) and writes their table into
# bench/load/README.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
. bench/lib/table.sh
table_args "$@"
if [ "$table" = 0 ]; then
  exec cargo run --release -q -p patience-server --example load -- ${db:+--db "$db"} "${args[@]}"
fi

cargo build --release -q -p patience-server --example load
load=target/release/examples/load
. scripts/lib/postgres.sh
if [ -z "$db" ]; then
  start_throwaway_postgres
  fresh() { new_postgres_database "load_$1"; }
else
  fresh() { echo "$db"; }
fi
run() { # label, then the benchmark's arguments
  local label="$1" rate p99 check
  shift
  niced "$load" "${args[@]}" "$@"
  rate=$(echo "$out" | sed -n 's/.* = \([0-9]*\) moves\/s.*/\1/p')
  p99=$(echo "$out" | sed -n 's/.*p99 \([0-9.]*\) ms.*/\1/p')
  check=$(echo "$out" | grep -q 'durability: all' && echo "every move stored" || echo "CHECK FAILED")
  table_row "$label" "$rate" "$p99 ms" "$check"
}
run "SQLite, 1 server"
run "PostgreSQL, 1 server" --db "$(fresh one)"
run "PostgreSQL, 3 servers" --db "$(fresh three)" --instances 3
args_text="${args[*]:-(default: 32 clients, 30,000 requests)}"
write_table bench/load/README.md "stores table: bench/load/run.sh --table" \
  "\`bench/load/run.sh --table ${args[*]}\` on $(nproc) cores, client and servers in one process, PostgreSQL $(basename "$(dirname "$(postgres_bin)")") on loopback; ${args_text}:" \
  store moves/s p99 "acknowledged moves"
