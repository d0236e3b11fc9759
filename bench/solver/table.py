#!/usr/bin/env python3
"""The per-game table of docs/solver.md from the JSON lines of surveys.

    bench/solver/table.py OUTDIR BUDGETS...    (BUDGETS as game=nodes)

Reads OUTDIR/GAME.jsonl (one deal a line, as `patience survey --out` writes
them) and prints one Markdown row a game: won, lost, unknown, win rates with
Wilson 95% intervals, CPU ms per deal and positions per CPU second.
"""
import json
import math
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from stats import wilson  # noqa: E402


def percent(interval):
    return tuple(100 * x for x in interval)


def pct(sorted_values, q):
    if not sorted_values:
        return 0.0
    i = min(len(sorted_values) - 1, int(math.ceil(q * len(sorted_values))) - 1)
    return sorted_values[max(i, 0)]


def row(path, budget):
    deals = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    n = len(deals)
    won = sum(d["result"] == "win" for d in deals)
    lost = sum(d["result"] == "no-win" for d in deals)
    unknown = n - won - lost
    lo, hi = percent(wilson(won, n))
    dlo, dhi = percent(wilson(won, won + lost)) if won + lost else (0.0, 0.0)
    cpu = sorted(d["cpu_milliseconds"] for d in deals)
    nodes = sum(d["nodes"] for d in deals)
    rate = nodes / (sum(cpu) / 1000) / 1e6 if sum(cpu) else 0.0
    first, last = min(d["deal"] for d in deals), max(d["deal"] for d in deals)
    decided = 100 * won / (won + lost) if won + lost else 0.0
    return (
        f"| `{path.stem}` | {first}..{last} | {budget:,} | {won} | {lost} | {unknown} "
        f"| {100 * won / n:.1f}% ({lo:.1f}–{hi:.1f}) | {decided:.1f}% ({dlo:.1f}–{dhi:.1f}) "
        f"| {pct(cpu, 0.5):.2f} / {pct(cpu, 0.95):.2f} | {rate:.2f} |"
    )


def main():
    out = pathlib.Path(sys.argv[1])
    for arg in sys.argv[2:]:
        game, budget = arg.split("=")
        print(row(out / f"{game}.jsonl", int(budget)))


if __name__ == "__main__":
    main()
