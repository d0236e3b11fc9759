#!/usr/bin/env bash
# Compare `patience solve` with lblsolve on the same La Belle Lucie boards,
# when it is present (it is never fetched here). The fc-solve comparison,
# which checks verdicts rather than best counts, is bench/solver/fcsolve.sh.
#
#   bench/solver/compare.sh [BOARDS]        (default 20 boards: deals 1..BOARDS)
#
# Environment:
#   PATIENCE  the patience binary (default target/release/patience)
#   LBLSOLVE  a checkout of github.com/sobjornstad/lblsolve (run as
#             `python3 -m lblsolve.cards < board` from inside it)
#
# For each board (the opening deal, one deal only: --redeals 0) it prints our
# verdict, time and best foundation count, and beside them lblsolve's time,
# the time ratio, and its best count.
set -euo pipefail
cd "$(dirname "$0")/../.."
boards=${1:-20}
patience=${PATIENCE:-target/release/patience}
[ -x "$patience" ] || { echo "build it first: cargo build --release -p patience-cli" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

now() { date +%s.%N; }
printf "%-6s %-8s %10s %6s %10s" deal ours ms best best-ms
[ -n "${LBLSOLVE:-}" ] && printf " | %10s %8s %s" lbl-ms ratio lbl-says
echo
for deal in $(seq 1 "$boards"); do
  board="$tmp/board$deal"
  # The plain fan form: one fan a line, tens written 10.
  "$patience" deal la-belle-lucie "$deal" | sed -n 's/^t[0-9]*: *//p' | sed '/^$/d' > "$board"
  out=$("$patience" solve la-belle-lucie --position "$board" --redeals 0 --best --json --time-ms 60000 || true)
  verdict=$(echo "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["result"])')
  ms=$(echo "$out" | python3 -c 'import json,sys; j=json.load(sys.stdin); print(j["milliseconds"])')
  best=$(echo "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["best"]["cards"])')
  bms=$(echo "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["best"]["milliseconds"])')
  printf "%-6s %-8s %10s %6s %10s" "$deal" "$verdict" "$ms" "$best" "$bms"
  if [ -n "${LBLSOLVE:-}" ]; then
    t0=$(now)
    # lblsolve says "Best sequence has N moves, transferring K cards to the foundation".
    said=$(cd "$LBLSOLVE" && timeout 300 python3 -m lblsolve.cards < "$board" 2>&1 \
      | sed -n -e 's/.*transferring \([0-9]*\) cards.*/\1 cards/p' \
               -e 's/.*No legal moves from this position would allow a foundation move.*/0 cards/p' \
      | head -1 || true)
    t1=$(now)
    lms=$(echo "($t1 - $t0) * 1000" | bc -l)
    printf " | %10.1f %8.0f %s" "$lms" "$(echo "$lms / ($bms + 0.001)" | bc -l)" "$said"
  fi
  echo
done
