#!/usr/bin/env python3
"""The figures of docs/winnability.md, from the graded library.

    python3 bench/levels/figures.py

Reads data/library/<game>.tsv (deal, level, and where runs were played the
person-like player's wins of its runs) and rewrites the block between the
`<!-- figures -->` and `<!-- /figures -->` lines of docs/winnability.md with,
per game: the deals graded, the solver's win rate (Easy, Medium and Hard all
mean a win exists) with its 95% Wilson interval, the share proved unwinnable,
the person-like player's rate over the games it played (95% interval) beside
the rate people reach by seed 000, and each level's share. A game whose file
carries no wins has a level split made by an earlier definition; the table
says so.
"""
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
from stats import wilson  # noqa: E402
LEVELS = ["easy", "medium", "hard", "unwinnable", "unknown"]
# What people reach, by the seeds: seed 000 says "about one game in ten" of
# La Belle Lucie; the seeds give no figure for the other games.
PEOPLE = {"la-belle-lucie": "about 1 in 10 (seed 000)"}


def rate(k, n):
    if n == 0:
        return "–"
    lo, hi = wilson(k, n)
    return f"{100 * k / n:.1f}% ({100 * lo:.1f}–{100 * hi:.1f})"


def share(k, n):
    return f"{k} ({100 * k / n:.1f}%)" if n else "0"


def game_row(path):
    levels = dict.fromkeys(LEVELS, 0)
    wins = runs = with_runs = 0
    lines = path.read_text().splitlines()
    for line in lines[1:]:
        cols = line.split("\t")
        if len(cols) < 2 or cols[1] not in levels:
            continue
        levels[cols[1]] += 1
        if len(cols) >= 4 and cols[2] and cols[3]:
            wins += int(cols[2])
            runs += int(cols[3])
            with_runs += 1
    n = sum(levels.values())
    won = levels["easy"] + levels["medium"] + levels["hard"]
    game = path.stem
    person = rate(wins, runs) if runs else "not graded by this player"
    return (
        f"| `{game}` | {n} | {rate(won, n)} | {share(levels['unwinnable'], n)} | {person} "
        f"| {PEOPLE.get(game, '–')} | "
        + " | ".join(share(levels[l], n) for l in LEVELS)
        + " |"
    )


def table(library):
    out = [
        "| game | deals | solver wins (95% CI) | proved unwinnable | person-like player wins (95% CI) "
        "| people | easy | medium | hard | unwinnable | unknown |",
        "|" + "---|" * 11,
    ]
    for path in sorted(library.glob("*.tsv")):
        out.append(game_row(path))
    return "\n".join(out)


def main():
    library = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "data/library"
    doc = ROOT / "docs/winnability.md"
    text = doc.read_text()
    start, end = "<!-- figures -->", "<!-- /figures -->"
    head, rest = text.split(start, 1)
    _, tail = rest.split(end, 1)
    doc.write_text(f"{head}{start}\n{table(library)}\n{end}{tail}")


if __name__ == "__main__":
    main()
