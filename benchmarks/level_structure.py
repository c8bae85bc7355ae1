"""How the positions of a lost deal's layers are made: levels, shapes, and suits shuffled among equal ranks.

    python benchmarks/level_structure.py                 # Good Measure 6991, 6880, 2715
    python benchmarks/level_structure.py -g bakers-dozen -d 6574

The layered search (solver/kernels/layers.py) holds the positions of one progress P at a time.  Within a
layer, a *level* is one set of hard lengths and foundations: its moves that stay in the level move free
cards between hosts, and are reversible.  A level's positions differ in their *shape* (how many free cards
lie on each hard prefix) and in which suit lies in each slot of a shape.  For each deal this prints, over
all its layers, the levels, the shapes, and how many positions a (level, shape) holds against
prod(n_r!), the count if the n_r free cards of each rank r were arranged among their slots in every way
(``full``).  The question it answers: is the space of the deals no search decides mostly suit
shuffles of the same shapes, which a proved reduction could fold?  Writes results/level-structure.md.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_solve import machine  # noqa: E402
from solver import GAMES, Budget, deal  # noqa: E402
from solver.kernels import layers as kernel  # noqa: E402
from solver.kernels.codes import LOST  # noqa: E402
from solver.search.layered import Layered  # noqa: E402
from solver.search.warm import warm_up  # noqa: E402

DEALS = "6991,6880,2715"  # Good Measure deals the depth-first search loses in 1-14 s (results/bench_layered.md)


class Census(Layered):
    """The layered search, counting each finished layer's levels and shapes before it is forgotten."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.groups: Counter[tuple] = Counter()  # (level, shape) -> positions
        self.full: dict[tuple, int] = {}  # level -> prod(n_r!) of its free cards

    def _search_layer(self, deadline, tick):
        status, reason = super()._search_layer(deadline, tick)
        if status == LOST:
            self._count(self.states[: self.lmeta[kernel.L_COUNT]])
        return status, reason

    def _count(self, rows: np.ndarray) -> None:
        run = self.run
        board, heights, found = np.zeros_like(run.board), np.zeros_like(run.heights), np.zeros_like(run.found)
        hard = np.zeros(board.shape[0], np.int64)
        for row in rows:
            kernel.decode(row, run.origin, run.kr.ranks, board, heights, found)
            kernel.hard_lengths(board, heights, run.origin, run.origin_heights, run.kr.build, hard)
            level = (tuple(hard.tolist()), tuple(found.tolist()))
            self.groups[level, tuple((heights - hard).tolist())] += 1
            if level not in self.full:
                ranks = Counter(board[p, i] // 4 for p in range(board.shape[0]) for i in range(hard[p], heights[p]))
                self.full[level] = math.prod(math.factorial(n) for n in ranks.values())


def census(number: int, rules, budget: Budget) -> list[str]:
    began = time.perf_counter()
    search = Census(deal(rules, number), rules, budget)
    status, reason = search.search(began + budget.seconds)
    if status != LOST:
        return [str(number), f"not lost ({reason or status})"] + [""] * 8
    levels: dict[tuple, int] = defaultdict(int)
    shapes: dict[tuple, int] = defaultdict(int)
    for (level, _), count in search.groups.items():
        levels[level] += count
        shapes[level] += 1
    positions = sum(levels.values())
    at_full = sum(c for (level, _), c in search.groups.items() if c == search.full[level])
    biggest = max(levels.values())
    return [
        str(number), f"{positions:,}", str(len(search.sizes)), f"{len(levels):,}", f"{len(search.groups):,}",
        f"{positions / len(search.groups):.1f}", f"{max(search.groups.values()):,}", f"{biggest:,}",
        f"{max(shapes.values()):,}", f"{100 * at_full / positions:.0f}%",
    ]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-g", "--game", default="good-measure")
    parser.add_argument("-d", "--deals", default=DEALS, help="comma-separated PySolFC numbers")
    parser.add_argument("-t", "--timeout", type=float, default=600.0)
    parser.add_argument("-m", "--memory", type=float, default=8.0, help="GiB")
    parser.add_argument("-o", "--output", type=Path, default=ROOT / "results" / "level-structure.md")
    args = parser.parse_args()
    rules = GAMES[args.game]
    budget = Budget(seconds=args.timeout, memory=int(args.memory * 2**30))
    warm_up()
    header = [
        "deal", "positions", "layers", "levels", "(level, shape)s", "positions a shape", "most in a shape",
        "most in a level", "most shapes in a level", "positions in full shapes",
    ]  # fmt: skip
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for number in [int(n) for n in args.deals.split(",")]:
        lines.append("| " + " | ".join(census(number, rules, budget)) + " |")
        print(lines[-1], flush=True)
    command = "python benchmarks/level_structure.py " + " ".join(sys.argv[1:])
    text = (
        f"# Levels and shapes of lost {args.game} deals\n\n{__doc__.split(chr(10) + chr(10), 2)[2]}\n"
        f"`{command.strip()}` on {machine()}.\n\n" + "\n".join(lines) + "\n"
    )
    args.output.write_text(text)
    print(f"written to {args.output}")


if __name__ == "__main__":
    main()
