#!/usr/bin/env python3
"""The figures of docs/winnability.md, from the graded library.

    python3 bench/levels/figures.py [LIBRARY_DIR] [--db STORE.db ...]

Reads data/library/<game>.tsv (deal, level, and where runs were played the
person-like player's wins of its runs) and rewrites the block between the
`<!-- figures -->` and `<!-- /figures -->` lines of docs/winnability.md with,
per game: the deals graded, the solver's win rate (Easy, Medium and Hard all
mean a win exists) with its 95% Wilson interval, the share proved unwinnable,
the person-like player's rate over the games it played (95% interval) beside
the rate people reach by seed 000, and each level's share. A game whose file
carries no wins has a level split made by an earlier definition; the table
says so.

With `--db`, a grading store (`patience grade --db`) stands in for the
library file of every game it holds grades of: its figures are those of the
grades in the store (from each grade's `person_wins` and `runs`), so a
regrade can be read before it is exported. Each store also gives the
grading cost: the CPU time its grades took (each grade stores its
`cpu_ms`), per 1000 deals, into the block between `<!-- cost -->` and
`<!-- /cost -->`; without `--db` that block is left as it is.
"""
import argparse
import json
import pathlib
import sqlite3
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


def library_grades(path):
    """(level, person_wins, runs) per deal of a library file; wins and runs
    are None where the file carries none."""
    for line in path.read_text().splitlines()[1:]:
        cols = line.split("\t")
        if len(cols) < 2:
            continue
        if len(cols) >= 4 and cols[2] and cols[3]:
            yield cols[1], int(cols[2]), int(cols[3])
        else:
            yield cols[1], None, None


def store_grades(db):
    """{game: [(level, person_wins, runs)]} of a grading store."""
    out = {}
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    for game, level, detail in con.execute("SELECT game, level, detail FROM grades"):
        grade = json.loads(detail).get("grade", {})
        out.setdefault(game, []).append((level, grade.get("person_wins"), grade.get("runs")))
    return out


def store_costs(db):
    """{game: (deals, cpu_ms, verdicts_reused)} of a grading store."""
    out = {}
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    for game, detail in con.execute("SELECT game, detail FROM grades"):
        d = json.loads(detail)
        n, ms, reused = out.get(game, (0, 0, 0))
        out[game] = (n + 1, ms + (d.get("cpu_ms") or 0), reused + bool(d.get("verdict_reused")))
    return out


def cost_table(stores):
    out = [
        "| game | deals graded | solver verdicts reused | CPU per 1000 deals |",
        "|---|---|---|---|",
    ]
    costs = {}
    for db in stores:
        costs.update(store_costs(db))
    for game in sorted(costs):
        n, ms, reused = costs[game]
        out.append(f"| `{game}` | {n} | {reused} | {ms / n * 1000 / 60_000:.1f} min |")
    return "\n".join(out)


def replace_block(text, name, body):
    start, end = f"<!-- {name} -->", f"<!-- /{name} -->"
    head, rest = text.split(start, 1)
    _, tail = rest.split(end, 1)
    return f"{head}{start}\n{body}\n{end}{tail}"


def game_row(game, grades):
    levels = dict.fromkeys(LEVELS, 0)
    wins = runs = 0
    for level, w, r in grades:
        if level not in levels:
            continue
        levels[level] += 1
        if w is not None and r:
            wins += w
            runs += r
    n = sum(levels.values())
    won = levels["easy"] + levels["medium"] + levels["hard"]
    person = rate(wins, runs) if runs else "not graded by this player"
    return (
        f"| `{game}` | {n} | {rate(won, n)} | {share(levels['unwinnable'], n)} | {person} "
        f"| {PEOPLE.get(game, '–')} | "
        + " | ".join(share(levels[l], n) for l in LEVELS)
        + " |"
    )


def table(library, stores):
    out = [
        "| game | deals | solver wins (95% CI) | proved unwinnable | person-like player wins (95% CI) "
        "| people | easy | medium | hard | unwinnable | unknown |",
        "|" + "---|" * 11,
    ]
    games = {p.stem: list(library_grades(p)) for p in library.glob("*.tsv")}
    for db in stores:
        games.update(store_grades(db))
    for game in sorted(games):
        out.append(game_row(game, games[game]))
    return "\n".join(out)


def main():
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("library", nargs="?", type=pathlib.Path, default=ROOT / "data/library")
    args.add_argument("--db", action="append", default=[], help="a grading store")
    a = args.parse_args()
    doc = ROOT / "docs/winnability.md"
    text = replace_block(doc.read_text(), "figures", table(a.library, a.db))
    if a.db:
        text = replace_block(text, "cost", cost_table(a.db))
    doc.write_text(text)


if __name__ == "__main__":
    main()
