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
rows=
run() { # label, then the check's arguments
  local label="$1" out
  shift
  out=$(nice -n 10 "${check[@]}" "${args[@]}" "$@")
  echo "$out" >&2
  local kill race
  kill=$(echo "$out" | sed -n 's/^kill -9: \(.*\)$/\1/p')
  race=$(echo "$out" | sed -n 's/^two tabs: \(.*\)$/\1/p')
  rows="$rows| $label | $kill | $race |"$'\n'
}
run "SQLite, 1 server"
run "PostgreSQL, 3 servers" --db "$db" --instances 3
table="| store | kill -9 under load | two tabs at once |"$'\n'"|---|---|---|"$'\n'"$rows"
echo "$table"
readme=bench/durability/README.md
begin='<!-- stores table: bench/durability/run.sh --table -->'
end='<!-- end of stores table -->'
block="$begin"$'\n'"\`bench/durability/run.sh --table ${args[*]}\` on $(nproc) cores (PostgreSQL: one of the three servers killed a round, restarted on the same database; the two tabs on two servers):"$'\n\n'"$table$end"
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
