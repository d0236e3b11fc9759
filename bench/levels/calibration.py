#!/usr/bin/env python3
"""The person-like player's calibration table of docs/winnability.md.

    python3 bench/levels/calibration.py [--patience BIN] [--jobs J]

Plays La Belle Lucie with `patience play --player person` at several
look-ahead budgets on the calibration deals (40001..40500, two runs a deal),
then at the shipped budget on the check deals (30001..32000, five runs a
deal, which no test and no calibration uses), and rewrites the block between
`<!-- calibration -->` and `<!-- /calibration -->` of docs/winnability.md
with each run's closing line: games won, the rate with its 95% interval,
cards home on average, and the CPU time a game took.
"""
import argparse
import pathlib
import re
import resource
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench/levels"))
from figures import replace_block  # noqa: E402
BUDGETS = [0, 100, 250, 600]
CALIBRATION = ("40001..40500", 2)
CHECK = ("30001..32000", 5)
CLOSING = re.compile(
    r"(?P<won>\d+) of (?P<games>\d+) games won \((?P<rate>[\d.]+)%; 95% CI (?P<lo>[\d.]+)%\.\.(?P<hi>[\d.]+)%\), "
    r"(?P<home>[\d.]+) cards home on average"
)


def shipped_budget(binary):
    """The budget `patience play` uses by default (the shipped LOOKAHEAD)."""
    out = subprocess.run([binary, "play", "--help"], capture_output=True, text=True, check=True).stdout
    m = re.search(r"--lookahead <LOOKAHEAD>.*?\[default: (\d+)\]", out, re.S)
    return int(m.group(1))


def play(binary, deals, runs, budget, jobs):
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    out = subprocess.run(
        [binary, "play", "la-belle-lucie", "--deals", deals, "--player", "person",
         "--runs", str(runs), "--lookahead", str(budget), "--jobs", str(jobs)],
        capture_output=True, text=True, check=True,
    ).stdout
    cpu = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - before
    m = CLOSING.search(out.strip().splitlines()[-1])
    games = int(m["games"])
    return (
        f"| {budget} | {deals}, {runs} | {m['won']} of {games} | {m['rate']}% ({m['lo']}–{m['hi']}) "
        f"| {m['home']} | {1000 * cpu / games:.0f} ms |"
    )


def main():
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--patience", default=str(ROOT / "target/release/patience"))
    args.add_argument("--jobs", type=int, default=2)
    a = args.parse_args()
    shipped = shipped_budget(a.patience)
    rows = [
        "| look-ahead | deals, runs a deal | games won | rate (95% CI) | cards home on average | CPU a game |",
        "|---|---|---|---|---|---|",
    ]
    rows += [play(a.patience, *CALIBRATION, b, a.jobs) for b in BUDGETS]
    rows.append(play(a.patience, *CHECK, shipped, a.jobs).replace(f"| {shipped} |", f"| {shipped} (check) |", 1))
    doc = ROOT / "docs/winnability.md"
    doc.write_text(replace_block(doc.read_text(), "calibration", "\n".join(rows)))


if __name__ == "__main__":
    main()
