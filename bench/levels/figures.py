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
`<!-- /cost -->`; without `--db` that block is left as it is, and the rows
of games no store given holds stay as they were.

A library may hold, beyond the deals 1..N graded in full, deals a hunt
found (`patience grade --hunt LEVELS`, which looks for rare levels only):
the level shares are those of 1..N, and the deals beyond are counted in a
column of their own, so a hunt does not tilt the shares. With `--db`, the
block between `<!-- hunts -->` and `<!-- /hunts -->` says, per game and
level hunted, how far the hunt has looked (the first M deals, each graded
or ruled out for that level), how many deals of the level the first M hold,
and what the hunt cost per 1000 deals looked at (a game the stores hold
loses the rows of hunts they do not hold: those were made by other gradings).
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
    """(deal, level, person_wins, runs) per deal of a library file; wins and
    runs are None where the file carries none."""
    for line in path.read_text().splitlines()[1:]:
        cols = line.split("\t")
        if len(cols) < 2:
            continue
        if len(cols) >= 4 and cols[2] and cols[3]:
            yield int(cols[0]), cols[1], int(cols[2]), int(cols[3])
        else:
            yield int(cols[0]), cols[1], None, None


def open_ro(db):
    return sqlite3.connect(f"file:{db}?mode=ro", uri=True)


def store_grades(db):
    """{game: [(deal, level, person_wins, runs)]} of a grading store."""
    out = {}
    for game, deal, level, detail in open_ro(db).execute(
        "SELECT game, deal, level, detail FROM grades"
    ):
        grade = json.loads(detail).get("grade", {})
        out.setdefault(game, []).append(
            (deal, level, grade.get("person_wins"), grade.get("runs"))
        )
    return out


def store_costs(db):
    """{game: (deals, cpu_ms, verdicts_reused)} of a grading store's plain
    gradings (a hunt's grades are its own cost: `store_hunts`)."""
    out = {}
    for game, detail in open_ro(db).execute("SELECT game, detail FROM grades"):
        d = json.loads(detail)
        if "hunt" in d:
            continue
        n, ms, reused = out.get(game, (0, 0, 0))
        out[game] = (n + 1, ms + (d.get("cpu_ms") or 0), reused + bool(d.get("verdict_reused")))
    return out


def prefix(deals):
    """N such that deals 1..N are all in `deals` (0 if deal 1 is not)."""
    n = 0
    while n + 1 in deals:
        n += 1
    return n


def store_hunts(db):
    """[(game, level, looked, found, cpu_ms, rows)] of a store: for each
    level a hunt sought, the first `looked` deals are each graded or ruled
    out for it; `found` of them are of the level; `cpu_ms` and `rows` are
    the cost of the hunt's own rows (ruled out or graded by it) in 1..looked."""
    con = open_ro(db)
    graded = {}
    for game, deal, level, detail in con.execute("SELECT game, deal, level, detail FROM grades"):
        d = json.loads(detail)
        graded.setdefault(game, {})[deal] = (level, d.get("hunt"), d.get("cpu_ms") or 0)
    ruled = {}
    has_table = con.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'ruled_out'"
    ).fetchone()
    rows = con.execute("SELECT game, level, deal, detail FROM ruled_out") if has_table else []
    for game, level, deal, detail in rows:
        ruled.setdefault((game, level), {})[deal] = json.loads(detail).get("cpu_ms") or 0
    out = []
    for (game, level), out_deals in sorted(ruled.items()):
        grades = graded.get(game, {})
        looked = prefix(set(grades) | set(out_deals))
        found = sum(1 for d, g in grades.items() if d <= looked and g[0] == level)
        own = [ms for d, ms in out_deals.items() if d <= looked]
        own += [g[2] for d, g in grades.items() if d <= looked and g[1] and level in g[1]]
        out.append((game, level, looked, found, sum(own), len(own)))
    return out


def hunt_table(stores):
    out = [
        "| game | level hunted | deals looked at | of that level | the hunt's CPU per 1000 deals looked at |",
        "|---|---|---|---|---|",
    ]
    for db in stores:
        for game, level, looked, found, ms, rows in store_hunts(db):
            # The hunt's rows are the deals it played in 1..looked; the rest
            # were graded before it, and cost it nothing.
            per = f"{ms / rows * 1000 / 60_000:.1f} min" if rows else "–"
            out.append(f"| `{game}` | {level} | 1..{looked} | {found} | {per} |")
    return "\n".join(out)


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


def block_rows(text, name):
    """The table rows (after the header and rule) of a block of `text`."""
    body = text.split(f"<!-- {name} -->", 1)[1].split(f"<!-- /{name} -->", 1)[0]
    return [line for line in body.strip().splitlines()[2:] if line.startswith("| `")]


def row_game(row):
    return row.split("`", 2)[1]


def merge_rows(table, kept):
    """`table` (header, rule, rows) with the `kept` rows of games it has no
    row of, all rows sorted by game: a store that holds some games updates
    their rows and leaves the other games' rows as they were."""
    lines = table.splitlines()
    games = {row_game(r) for r in lines[2:]}
    rows = lines[2:] + [r for r in kept if row_game(r) not in games]
    rows.sort(key=row_game)
    return "\n".join(lines[:2] + rows)


def game_row(game, grades):
    """The figures of deals 1..N, every one graded; deals beyond N (found by
    a hunt) are only counted, by level."""
    n = prefix({deal for deal, *_ in grades})
    levels = dict.fromkeys(LEVELS, 0)
    beyond = dict.fromkeys(LEVELS, 0)
    wins = runs = 0
    for deal, level, w, r in grades:
        if level not in levels:
            continue
        if deal > n:
            beyond[level] += 1
            continue
        levels[level] += 1
        if w is not None and r:
            wins += w
            runs += r
    won = levels["easy"] + levels["medium"] + levels["hard"]
    person = rate(wins, runs) if runs else "not graded by this player"
    found = ", ".join(f"{beyond[l]} {l}" for l in LEVELS[:3] if beyond[l]) or "–"
    return (
        f"| `{game}` | 1..{n} | {rate(won, n)} | {share(levels['unwinnable'], n)} | {person} "
        f"| {PEOPLE.get(game, '–')} | "
        + " | ".join(share(levels[l], n) for l in LEVELS)
        + f" | {found} |"
    )


def table(library, stores):
    out = [
        "| game | deals | solver wins (95% CI) | proved unwinnable | person-like player wins (95% CI) "
        "| people | easy | medium | hard | unwinnable | unknown | found by hunts beyond |",
        "|" + "---|" * 12,
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
        for name, made in (("cost", cost_table(a.db)), ("hunts", hunt_table(a.db))):
            held = {g for db in a.db for g in store_grades(db)}
            kept = [r for r in block_rows(text, name) if row_game(r) not in held]
            text = replace_block(text, name, merge_rows(made, kept))
    doc.write_text(text)


if __name__ == "__main__":
    main()
