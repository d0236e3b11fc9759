#!/usr/bin/env bash
# Grade again the deals of the library that a level holds (by default the
# Unknown ones, after a change to the solver), and merge the new grades into
# data/library: the budgets and seed are `patience grade`'s defaults, the
# ones the library was graded with.
#
#   bench/levels/regrade.sh GAME [LEVEL [A..B]]   (LEVEL default unknown)
#
# A..B keeps the regrade to the deals of that range (a game with thousands
# of deals in the level is regraded a range at a time).
#
# Environment: PATIENCE (default target/release/patience), DB (the grading
# store, default bench/levels/regrade.db, kept so that a stopped run
# resumes), NICE (default 10), THEN_NODES (larger node budgets, separated
# by commas, for the deals the default budget leaves unknown: `patience
# grade --then-nodes`; the frontier's 10-s budget is 15000000), MEMORY_MB
# (the solver's table cap, `patience grade --memory-mb`; give such budgets
# 1024, the frontier's).
set -euo pipefail
cd "$(dirname "$0")/../.."
patience=${PATIENCE:-target/release/patience}
db=${DB:-bench/levels/regrade.db}
nice=${NICE:-10}
then=()
[ -n "${THEN_NODES:-}" ] && then=(--then-nodes "$THEN_NODES")
[ -n "${MEMORY_MB:-}" ] && then+=(--memory-mb "$MEMORY_MB")
game=$1
level=${2:-unknown}
range=${3:-1..}
first=${range%%..*}
last=${range##*..}
[ -x "$patience" ] || { echo "build it first: cargo build --release -p patience-cli" >&2; exit 2; }
deals=$(awk -F'\t' -v l="$level" -v a="${first:-1}" -v b="$last" \
  'NR > 1 && $2 == l && $1 >= a + 0 && (b == "" || $1 <= b + 0) { print $1 }' "data/library/$game.tsv")
n=0
for d in $deals; do
  nice -n "$nice" "$patience" grade "$game" --deals "$d" --jobs 1 --db "$db" "${then[@]}" > /dev/null
  n=$((n + 1))
done
"$patience" grade "$game" --db "$db" --export data/library > /dev/null
echo "$game: $n $level deals of $range graded again" >&2
