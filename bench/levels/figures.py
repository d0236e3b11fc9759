#!/usr/bin/env python3
"""The tables of docs/winnability.md, from a store that `patience grade` filled.

    python3 bench/levels/figures.py lib.db

Reads each grade's detail (the JSON `patience grade` stores beside the level)
and prints, per game: the deals graded, the solver's and the hint-follower's
win rates, the person-like player's rate, the level counts, and the grading
time per 1000 deals. Grades loaded from a library file carry no detail; they
are counted in the levels only, and said so.

The person-like runs are skipped on deals the hint-follower wins (they cannot
change those deals' level), so the player's rate is given twice: over deals
1..1000, graded when every deal had its runs, and over every graded deal the
hint-follower did not win, which all rounds played.
"""
import json
import math
import sqlite3
import sys

LEVELS = ["easy", "medium", "hard", "unwinnable", "unknown"]
GAMES = """la-belle-lucie la-belle-lucie-one-redeal trefoil three-shuffles-and-a-draw
la-belle-lucie-super-move la-belle-lucie-sequences la-belle-lucie-36 fan
house-in-the-woods house-on-the-hill fan-layout swallows novomanernaya krakowski
trilistnik bredulia melnitsa krug blondes-and-brunettes nivernaise""".split()


def wilson(k, n, z=1.959964):
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    centre = p + z * z / (2 * n)
    margin = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    d = 1 + z * z / n
    return (max(0.0, (centre - margin) / d), min(1.0, (centre + margin) / d))


def ranges(deals):
    """Deal numbers as runs: 1..4000, 4101..4200."""
    out, start, prev = [], None, None
    for d in sorted(deals):
        if start is None:
            start = prev = d
        elif d == prev + 1:
            prev = d
        else:
            out.append((start, prev))
            start = prev = d
    if start is not None:
        out.append((start, prev))
    return ", ".join(f"{a}..{b}" if a != b else f"{a}" for a, b in out)


def pct(k, n):
    return f"{100 * k / n:.1f}%" if n else "–"


def ci(k, n):
    lo, hi = wilson(k, n)
    return f"{100 * lo:.1f}–{100 * hi:.1f}"


def main():
    db = sqlite3.connect(sys.argv[1] if len(sys.argv) > 1 else "lib.db")
    per_game = []
    print("| game | deals graded | solver wins (95% CI) | solver proves no win | hint-follower wins (95% CI) "
          "| person-like, share of games won, deals 1..1000 (95% CI) | person-like, on deals the hint does not win "
          "| easy | medium | hard | unwinnable | unknown |")
    print("|" + "---|" * 12)
    for g in GAMES:
        rows = db.execute("SELECT deal, level, detail FROM grades WHERE game = ?", (g,)).fetchall()
        if not rows:
            continue
        n = len(rows)
        lv = {l: 0 for l in LEVELS}
        sw = sl = hw = 0
        p1 = r1 = 0  # person wins / runs, deals 1..1000
        pf = rf = 0  # person wins / runs, deals the hint did not win
        bare = 0
        old_ms = old_n = 0
        new_cpu = new_n = 0
        for deal, level, detail in rows:
            lv[level] += 1
            j = json.loads(detail)
            if "grade" not in j:
                bare += 1
                continue
            gr = j["grade"]
            v = gr["solver"]["verdict"]
            sw += v == "win"
            sl += v == "nowin"
            hint_won = bool(gr["hint"]) and gr["hint"]["end"] == "won"
            hw += hint_won
            if deal <= 1000:
                p1 += gr["person_wins"]
                r1 += gr["runs"]
            if not hint_won:
                pf += gr["person_wins"]
                rf += gr["runs"]
            if j.get("cpu_ms") is not None:
                new_cpu += j["cpu_ms"]
                new_n += 1
            else:
                old_ms += j["ms"]
                old_n += 1
        m = n - bare
        print(f"| `{g}` | {ranges([r[0] for r in rows])} ({n}) | {pct(sw, m)} ({ci(sw, m)}) | {pct(sl, m)} "
              f"| {pct(hw, m)} ({ci(hw, m)}) | {pct(p1, r1)} ({ci(p1, r1)}) | {pct(pf, rf)} ({ci(pf, rf)}) | "
              + " | ".join(f"{lv[l]} ({pct(lv[l], n)})" for l in LEVELS) + " |")
        per_game.append((g, old_n, old_ms, new_n, new_cpu, bare, n, lv))
    print()
    print("| game | deals 1..1000: s per 1000 deals (wall, `--jobs 2`, every run played) "
          "| later deals graded | their s per 1000 deals (CPU of the grading thread, runs skipped where the hint wins) |")
    print("|---|---|---|---|")
    for g, old_n, old_ms, new_n, new_cpu, bare, _, _ in per_game:
        old = f"{old_ms / old_n:.0f}" if old_n else "–"
        new = f"{new_cpu / new_n:.1f}" if new_n else "–"
        print(f"| `{g}` | {old} | {new_n} | {new} |")
        if bare:
            print(f"<!-- {g}: {bare} grades without detail (loaded from a library file) -->")
    print()
    print("| game | deals graded | easy | medium | hard | short of 200 |")
    print("|---|---|---|---|---|---|")
    for g, _, _, _, _, _, n, lv in per_game:
        short = [l for l in ("easy", "medium", "hard") if lv[l] < 200]
        cells = " | ".join(
            f"{lv[l]}" if lv[l] >= 200 else f"**{lv[l]}**" for l in ("easy", "medium", "hard")
        )
        if short and n >= 20000:
            verdict = f"{', '.join(short)}: all the first 20,000 deals hold"
        else:
            verdict = ", ".join(short) or "–"
        print(f"| `{g}` | {n} | {cells} | {verdict} |")


if __name__ == "__main__":
    main()
