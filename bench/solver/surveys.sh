#!/usr/bin/env bash
# The surveys behind the figures of docs/solver.md, with their budgets.
#
#   bench/solver/surveys.sh [OUTDIR]     (default bench/solver/out, not committed)
#
# Needs the release build: cargo build --release -p patience-cli
# Each line of OUTDIR/GAME.jsonl is one deal; OUTDIR/GAME.txt is the closing table.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-bench/solver/out}
jobs=${JOBS:-2}
patience=${PATIENCE:-target/release/patience}
mkdir -p "$out"
run() { # game deals nodes
  "$patience" survey "$1" --deals "$2" --jobs "$jobs" --nodes "$3" --out "$out/$1.jsonl" | tee "$out/$1.txt"
}
# The anchors: Fan 1..1000, Nivernaise 1..3000, with generous per-deal budgets.
run fan 1..1000 20000000
run nivernaise 1..3000 2000000
# Every other game, deals 1..1000, 200,000 positions a deal.
for g in $("$patience" games | awk '{print $1}'); do
  case "$g" in fan|nivernaise) continue ;; esac
  run "$g" 1..1000 200000
done
