#!/usr/bin/env bash
# The solver's frontier: how many deals of each game it decides within about
# 1 s and 10 s of CPU a deal, written as a table into docs/solver.md.
#
#   bench/solver/frontier.sh [GAME[=A..B] ...]
#
# Without arguments: every game, deals 1..1000 (about 2 CPU-hours at the
# 10-s budget where deals are hard). GAME=A..B surveys that range of GAME
# only, for a smaller run; the table says which deals each row covers.
#
# The budgets are 1 s and 10 s of wall clock a deal (`--time-ms`), one job,
# so on a loaded machine a deal gets at most that much CPU; the table
# reports the CPU time each deal really took, and its heading the machine's
# speed (a fixed search of 3,000,000 positions, timed first). BUDGET=nodes
# uses node counts instead, RATE positions for "1 s" and 10 x RATE for
# "10 s", which answer
# the same on every machine (the way to compare two builds of the solver;
# the games' rates differ from 1.4 M positions a CPU second in Krakowski to
# 9 M in La Belle Lucie, so there the columns are not seconds). Each deal is
# solved with the 1-s budget; a deal left unknown is solved again, from the
# start, with the 10-s budget, and its 10-s figures are that solve's. A deal
# decided within 1 s keeps its answer and its time in the 10-s columns.
#
# Environment:
#   PATIENCE  the patience binary (default target/release/patience)
#   OUT       where the JSON lines go (default bench/solver/frontier-out)
#   BUDGET    time (default) or nodes
#   RATE      with BUDGET=nodes, the positions of "1 s" (default 1500000)
#   NICE      niceness of the surveys (default 10)
#   JOBS      deals solved at once, one a core (default 1). Node budgets
#             answer the same at any JOBS; with time budgets use no more
#             jobs than idle cores, or a deal gets less CPU than its budget
#   DOC       the file whose <!-- BLOCK --> block is rewritten
#             (default docs/solver.md; DOC=- prints the table only)
#   BLOCK     the name of that block (default frontier; the 10-s CPU table
#             of the games the node budgets shortchange is frontier-time)
set -euo pipefail
cd "$(dirname "$0")/../.."
patience=${PATIENCE:-target/release/patience}
out=${OUT:-bench/solver/frontier-out}
budget=${BUDGET:-time}
rate=${RATE:-1500000}
nice=${NICE:-10}
jobs=${JOBS:-1}
doc=${DOC:-docs/solver.md}
block=${BLOCK:-frontier}
[ -x "$patience" ] || { echo "build it first: cargo build --release -p patience-cli" >&2; exit 2; }
mkdir -p "$out"

# With time budgets the table depends on the machine's speed, which varies
# from one run to the next: a fixed number of positions, timed first, puts
# that speed in the table's heading.
speed=()
if [ "$budget" = time ]; then
  nice -n "$nice" "$patience" survey krakowski --deals 1..1 --jobs 1 --nodes 3000000 \
    --out "$out/speed.jsonl" > /dev/null
  speed=(--speed "$out/speed.jsonl")
fi

specs=("$@")
if [ ${#specs[@]} -eq 0 ]; then
  for g in $("$patience" games | awk '{print $1}'); do specs+=("$g=1..1000"); done
fi

case "$budget" in
  time) one=(--time-ms 1000); ten=(--time-ms 10000) ;;
  nodes) one=(--nodes "$rate"); ten=(--nodes $((10 * rate))) ;;
  *) echo "BUDGET must be time or nodes" >&2; exit 2 ;;
esac
for spec in "${specs[@]}"; do
  game=${spec%%=*}
  range=${spec#*=}
  [ "$range" = "$spec" ] && range=1..1000
  first=${range%%..*}
  last=${range##*..}
  tag="$game.$first-$last"
  # 1 s a deal, every deal of the range.
  nice -n "$nice" "$patience" survey "$game" --deals "$range" --jobs "$jobs" "${one[@]}" \
    --out "$out/$tag.1s.jsonl" > "$out/$tag.1s.txt"
  # 10 s a deal, each deal the 1-s survey left unknown, JOBS at a time, each
  # into a part of its own, gathered in deal order.
  parts="$out/$tag.10s.parts"
  rm -rf "$parts" && mkdir -p "$parts"
  python3 -c '
import json, sys
for line in open(sys.argv[1]):
    d = json.loads(line)
    if d["result"].startswith("unknown"):
        print(d["deal"])' "$out/$tag.1s.jsonl" |
    xargs -r -P "$jobs" -I{} nice -n "$nice" "$patience" survey "$game" --deals "{}..{}" \
      --jobs 1 "${ten[@]}" --out "$parts/{}.jsonl" > /dev/null
  find "$parts" -name '*.jsonl' | sort -V | xargs -r cat > "$out/$tag.10s.jsonl"
  rm -rf "$parts"
  echo "$game $range done" >&2
done

# The command line that repeats this run, for the table's heading.
env=""
[ "$budget" = time ] || env+="BUDGET=$budget "
[ "$rate" = 1500000 ] || env+="RATE=$rate "
[ "$out" = bench/solver/frontier-out ] || env+="OUT=$out "
[ "$block" = frontier ] || env+="BLOCK=$block "
[ "$jobs" = 1 ] || env+="JOBS=$jobs "
python3 bench/solver/frontier.py --out "$out" --budget "$budget" --rate "$rate" --doc "$doc" \
  --block "$block" --jobs "$jobs" --command "${env}bench/solver/frontier.sh $*" "${speed[@]}" \
  "${specs[@]}"
