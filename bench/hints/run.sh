#!/usr/bin/env bash
# Hints under a flood: how long a player who asks now and then waits for a
# hint while other players ask in a loop. Builds and runs
# crates/server/examples/hint_flood.rs in release mode; extra arguments go to
# it, e.g.
#   bench/hints/run.sh --loopers 16 --hints 5
# `--table` runs it with 16 and with 4 looping players and writes their
# table into bench/hints/README.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
. bench/lib/table.sh
table_args "$@"
cargo build --release -q -p patience-server --example hint_flood
flood=target/release/examples/hint_flood
if [ "$table" = 0 ]; then
  exec nice -n 10 "$flood" "${args[@]}"
fi
run() { # looping players
  niced "$flood" "${args[@]}" --loopers "$1"
  table_row "$1" "$(echo "$out" | sed -n 's/^a player.s hints among [0-9]* looping players: \(.*\)$/\1/p')" \
    "$(echo "$out" | sed -n 's/^looping players: \(.*\)$/\1/p')"
}
run 16
run 4
write_table bench/hints/README.md "hints table: bench/hints/run.sh --table" \
  "\`bench/hints/run.sh --table ${args[*]}\` on $(nproc) cores, players and server in one process:" \
  "looping players" "the other player's hints" "the loops' hints"
