"""The depth-first search's speed on 52 and on 104 cards: positions per second and table bytes per position.

    python benchmarks/bench_rate.py                     # deals 1-20 of each game, 1,000,000 positions each
    python benchmarks/bench_rate.py --deals 1-5 --states 200000

The two-deck games decide their PySolFC deals in a few hundred positions
(results/bench_solve-two-decks.md), too few to time the search itself.  So
each deal here gets one depth-first run (``one_run``) to a positions budget,
and the table counts only the runs that search at least half of it: the
long searches, where the kernels' speed shows.  Unusual is played with its
redeals spent (``redeals = 0``: as dealt, nearly every deal is won at once),
beside Cruel as dealt (unlimited redeals; its hard deals search long); Baker's
Dozen beside Baker's Dozen (2 decks), both as dealt.  One process, compiled
kernels loaded before any clock starts.  Positions per second: the long
runs' positions over their wall seconds.  Table bytes per position: the
most the tables and stacks held at once over the positions searched (an
entry is 16 bytes whatever the deck; the table doubles when 70% full).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_solve import machine  # noqa: E402
from solver import GAMES, Budget  # noqa: E402
from solver.game.deals import deal  # noqa: E402
from solver.search import solve, warm_up  # noqa: E402

GAMES_SPENT = [("cruel", False), ("unusual", True), ("bakers-dozen", False), ("bakers-dozen-2-decks", False)]


def measure(game: str, spent: bool, numbers: list[int], positions: int) -> dict:
    rules = replace(GAMES[game], redeals=0) if spent else GAMES[game]
    rows = []
    for number in numbers:
        board = replace(deal(GAMES[game], number), redeals=0) if spent else deal(rules, number)
        began = time.perf_counter()
        result = solve(board, rules, Budget(seconds=120, positions=positions), one_run=True)
        seconds = time.perf_counter() - began
        rows.append((result.verdict, result.positions, seconds, result.memory))
    big = [r for r in rows if r[1] >= positions // 2]
    return {
        "game": game,
        "cards": rules.cards,
        "deals": len(rows),
        "verdicts": {v: sum(r[0] == v for r in rows) for v in ("won", "lost", "unknown")},
        "rate": sum(r[1] for r in big) / sum(r[2] for r in big) if big else float("nan"),
        "bytes": statistics.median(r[3] / r[1] for r in big) if big else float("nan"),
        "big": len(big),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", default="1-20", help="FIRST-LAST")
    parser.add_argument("--states", type=int, default=1_000_000, help="positions a deal at most")
    parser.add_argument("--out", default=str(ROOT / "results" / "bench_rate.md"))
    args = parser.parse_args()
    first, _, last = args.deals.partition("-")
    numbers = list(range(int(first), int(last or first) + 1))
    warm_up()
    lines = [
        f"# Depth-first search speed, 52 and 104 cards: PySolFC deals {args.deals}, one run each",
        "",
        f"Machine: {machine()}.",
        f"Command: `python benchmarks/bench_rate.py {' '.join(sys.argv[1:])}`",
        "",
        f"| game | cards | deals | won / lost / unknown | long runs (>= {args.states // 2:,} positions) "
        "| positions per second | bytes per position |",
        "|---|---|---|---|---|---|---|",
    ]
    for game, spent in GAMES_SPENT:
        m = measure(game, spent, numbers, args.states)
        v = m["verdicts"]
        name = f"{game} (redeals spent)" if spent else game
        lines.append(
            f"| {name} | {m['cards']} | {m['deals']} | {v['won']} / {v['lost']} / {v['unknown']} "
            f"| {m['big']} | {m['rate']:,.0f} | {m['bytes']:.0f} |"
        )
        print(lines[-1], flush=True)
    lines += [
        "",
        "Both figures are over the long runs only: positions per second, their positions over their seconds;",
        "bytes per position, the median of the most the tables and stacks held at once (`SolveResult.memory`)",
        "over the positions searched.  A shorter search sits in the table's first allocation.",
    ]
    Path(args.out).write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
