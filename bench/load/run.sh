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
table=0
db=
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --table) table=1 ;;
    --db) db="$2"; shift ;;
    *) args+=("$1") ;;
  esac
  shift
done
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
rows=
run() { # label, then the benchmark's arguments
  local label="$1" out
  shift
  out=$(nice -n 10 "$load" "${args[@]}" "$@")
  echo "$out" >&2
  local rate p99 check
  rate=$(echo "$out" | sed -n 's/.* = \([0-9]*\) moves\/s.*/\1/p')
  p99=$(echo "$out" | sed -n 's/.*p99 \([0-9.]*\) ms.*/\1/p')
  check=$(echo "$out" | grep -q 'durability: all' && echo "every move stored" || echo "CHECK FAILED")
  rows="$rows| $label | $rate | $p99 ms | $check |"$'\n'
}
run "SQLite, 1 server"
run "PostgreSQL, 1 server" --db "$(fresh one)"
run "PostgreSQL, 3 servers" --db "$(fresh three)" --instances 3
table="| store | moves/s | p99 | acknowledged moves |"$'\n'"|---|---|---|---|"$'\n'"$rows"
echo "$table"
readme=bench/load/README.md
begin='<!-- stores table: bench/load/run.sh --table -->'
end='<!-- end of stores table -->'
args_text="${args[*]:-(default: 32 clients, 30,000 requests)}"
block="$begin"$'\n'"\`bench/load/run.sh --table ${args[*]}\` on $(nproc) cores, client and servers in one process, PostgreSQL $(basename "$(dirname "$(postgres_bin)")") on loopback; ${args_text}:"$'\n\n'"$table$end"
python3 - "$readme" "$begin" "$end" "$block" <<'PY'
import sys
path, begin, end, block = sys.argv[1:]
text = open(path).read()
if begin in text and end in text:
    text = text[:text.index(begin)] + block + text[text.index(end) + len(end):]
else:
    text = text.rstrip("\n") + "\n\n" + block + "\n"
open(path, "w").write(text)
PY
