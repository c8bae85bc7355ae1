"""How the positions of a lost deal's layers are made: levels, shapes, and suits shuffled among equal ranks.

    python benchmarks/level_structure.py                 # Good Measure 6991, 6880, 2715
    python benchmarks/level_structure.py -g bakers-dozen -d 6574

The layered search (solver/kernels/layered.py) holds the positions of one progress P at a time.  Within a
layer, a *level* is one set of hard lengths and foundations: its moves that stay in the level move free
cards between hosts, and are reversible, so the level splits into *components* of one fate each.  A
level's positions differ in their *shape* (how many free cards lie on each hard prefix) and in which suit
lies in each slot of a shape.  For each deal this prints, over all its layers: the levels, the shapes,
how many positions a (level, shape) holds against prod(n_r!), the count if the n_r free cards of each
rank r were arranged among their slots in every way (``full``); and the components the positions met
fall in, each searched whole in the real game (pruning nothing), with how many of them the swap
condition (``swap_condition_holds``) proves full.  The question it answers: how much could a search gain that
folded each component, or each level, into one node?  Writes results/level-structure.md.
"""

from __future__ import annotations

import math
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_layered import deal_arguments  # noqa: E402
from benchmarks.bench_solve import machine  # noqa: E402
from solver import GAMES, Budget, deal  # noqa: E402
from solver.kernels import layered as kernel  # noqa: E402
from solver.kernels.codes import LOST  # noqa: E402
from solver.search.layered import Layered  # noqa: E402
from solver.search.root import Root  # noqa: E402
from solver.search.warm import warm_up  # noqa: E402

DEALS = "6991,6880,2715"  # Good Measure deals the depth-first search loses in 1-14 s (results/bench_layered.md)


class Census(Layered):
    """The layered search, counting each finished layer's levels and shapes before it is forgotten."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.groups: Counter[tuple] = Counter()  # (level, shape) -> positions
        self.rows: dict[tuple, list[bytes]] = defaultdict(list)  # level -> its positions met
        self.full: dict[tuple, int] = {}  # level -> prod(n_r!) of its free cards

    def _search_layer(self, deadline, tick):
        status, reason = super()._search_layer(deadline, tick)
        if status == LOST:
            self._count(self.states[: self.lmeta[kernel.L_COUNT]])
        return status, reason

    def _count(self, rows: np.ndarray) -> None:
        run = self.root
        board, heights, found = (np.zeros_like(a) for a in (run.origin, run.origin_heights, run.origin_found))
        hard = np.zeros(board.shape[0], np.int64)
        for row in rows:
            kernel.decode(row, run.origin, run.rule_codes.ranks, board, heights, found)
            kernel.hard_lengths(board, heights, run.origin, run.origin_heights, run.rule_codes.build, hard)
            level = (tuple(hard.tolist()), tuple(found.tolist()))
            shape = tuple((heights - hard).tolist())
            self.groups[level, shape] += 1
            self.rows[level].append(row.tobytes())
            if level not in self.full:
                ranks = Counter(board[p, i] // 4 for p in range(board.shape[0]) for i in range(hard[p], heights[p]))
                self.full[level] = math.prod(math.factorial(n) for n in ranks.values())


def in_level_moves(position: tuple[tuple[int, ...], ...], hard: list[int]):
    """The positions one move that stays in the level leads to: a free card (above its pile's hard prefix)
    onto another pile's top one rank higher (building down by rank, in any suit)."""
    tops = [pile[-1] // 4 if pile else -9 for pile in position]
    for i, pile in enumerate(position):
        if len(pile) <= hard[i]:
            continue
        for j in range(len(position)):
            if j != i and tops[j] == tops[i] + 1:
                moved = list(position)
                moved[i], moved[j] = pile[:-1], position[j] + (pile[-1],)
                yield tuple(moved)


def swap_condition_holds(start: tuple[tuple[int, ...], ...], hard: list[int]) -> bool:
    """Whether the swap condition proves every arrangement of the free cards reachable in this position's
    component: at some position of a walk over its shapes, two free cards of rank r on top and a third pile
    topped by rank r+1 can trade places (one goes to the third pile, the other takes its place, the first
    takes the other's), and the walk there, the swap and the walk back trade them at the start; when such
    trades join all free cards of each rank, they give every order.  (A sufficient condition, checked cold
    on 99,572 small positions: never wrong.)"""
    parent: dict[int, int] = {}

    def find(card: int) -> int:
        while parent.setdefault(card, card) != card:
            card = parent[card]
        return card

    def shape(position):
        return tuple(len(pile) - h for pile, h in zip(position, hard, strict=True))

    seen, queue = {shape(start)}, [start]
    while queue:
        position = queue.pop()
        tops = [pile[-1] // 4 if pile else -9 for pile in position]
        for r in set(tops):
            free_tops = [p for p, pile in enumerate(position) if len(pile) > hard[p] and tops[p] == r]
            if len(free_tops) >= 2 and r + 1 in tops:
                for p in free_tops[1:]:
                    parent[find(position[p][-1])] = find(position[free_tops[0]][-1])
        for moved in in_level_moves(position, hard):
            if shape(moved) not in seen:
                seen.add(shape(moved))
                queue.append(moved)
    roots: dict[int, set[int]] = {}
    for p, pile in enumerate(start):
        for card in pile[hard[p] :]:
            roots.setdefault(card // 4, set()).add(find(card))
    return all(len(r) == 1 for r in roots.values())


def in_level_component(start: tuple[tuple[int, ...], ...], hard: list[int], limit: int) -> set[tuple] | None:
    """Every position reachable from this one by moves that stay in its level, each as a tuple of pile
    tuples; None past ``limit`` positions."""
    seen, queue = {start}, [start]
    while queue:
        for moved in in_level_moves(queue.pop(), hard):
            if moved not in seen:
                if len(seen) >= limit:
                    return None
                seen.add(moved)
                queue.append(moved)
    return seen


def folded_nodes(search: Census, limit: int = 1 << 20) -> tuple[int, int, int, int]:
    """The in-level components (moves that stay are reversible, so each has one fate) that the positions
    met fall in, each searched whole from one of them; a component past ``limit`` positions counts the
    position alone.  Returns (components, how many the swap condition proves full, their positions, how
    many were past the limit)."""
    run = search.root
    board, heights, found = (np.zeros_like(a) for a in (run.origin, run.origin_heights, run.origin_found))
    components = proved = spanned = past = 0
    for level, rows in search.rows.items():
        hard = list(level[0])
        met = set()
        for raw in rows:
            kernel.decode(np.frombuffer(raw, np.uint64), run.origin, run.rule_codes.ranks, board, heights, found)
            met.add(tuple(tuple(board[p, : heights[p]].tolist()) for p in range(board.shape[0])))
        while met:
            position = met.pop()
            component = in_level_component(position, hard, limit)
            components += 1
            if component is None:
                past += 1
                continue
            met -= component
            spanned += len(component)
            proved += swap_condition_holds(position, hard)
    return components, proved, spanned, past


def census(number: int, rules, budget: Budget) -> list[str]:
    began = time.perf_counter()
    search = Census(Root(deal(rules, number), rules), budget)
    status, reason = search.search(began + budget.seconds)
    if status != LOST:
        return [str(number), f"not lost ({reason or status})"] + [""] * 12
    levels: dict[tuple, int] = defaultdict(int)
    shapes: dict[tuple, int] = defaultdict(int)
    for (level, _), count in search.groups.items():
        levels[level] += count
        shapes[level] += 1
    positions = sum(levels.values())
    at_full = sum(c for (level, _), c in search.groups.items() if c == search.full[level])
    biggest = max(levels.values())
    components, proved, spanned, past = folded_nodes(search)
    return [
        str(number), f"{positions:,}", str(len(search.sizes)), f"{len(levels):,}", f"{len(search.groups):,}",
        f"{positions / len(search.groups):.1f}", f"{max(search.groups.values()):,}", f"{biggest:,}",
        f"{max(shapes.values()):,}", f"{100 * at_full / positions:.0f}%", f"{components:,} ({past} past 2^20)",
        f"{positions / components:.0f}", f"{spanned:,}", f"{proved:,}",
    ]  # fmt: skip


def main() -> None:
    args, budget = deal_arguments(__doc__, DEALS, "level-structure.md")
    rules = GAMES[args.game]
    warm_up()
    header = [
        "deal", "positions", "layers", "levels", "(level, shape)s", "positions a shape", "most in a shape",
        "most in a level", "most shapes in a level", "positions in full shapes", "components",
        "positions met a component", "positions of the components", "components the swap condition proves full",
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
