"""The beam's kernels (solver/kernels/beam.py): a level keeps the best few children of each abstract position
(its "Diversity"), the dealt cards it scores and keys, and it drops the positions the depth-first search's
table marks lost.  (Whole beams, their wins replayed, and beams within solve() are in
tests/search/test_beam.py.)"""

import random

import numpy as np
import pytest
from naive import choose_plainly

from solver.game.deals import deal, random_deal
from solver.game.rules import GAMES
from solver.kernels import beam as B
from solver.kernels import codes as K
from solver.search import Budget
from solver.search.beam import Beam
from solver.search.dfs import DepthFirst
from solver.search.root import Root

NO_MARKS = np.zeros(1 << 10, dtype=np.uint64)  # a depth-first table that marks nothing lost


def test_beam_skips_positions_the_depth_first_search_proved_lost():
    """Given the table of a complete lost search, a beam keeps none of the root's children:
    the search has marked every one of them lost (or they are dead, which the beam also drops)."""
    rng = random.Random("beam-marks")
    rules = GAMES["good-measure"].reduced(7, 4)  # smaller lost deals are mostly dead at the root
    checked = 0
    for _ in range(200):
        board = random_deal(rules, rng)
        run = DepthFirst(Root(board, rules), Budget(seconds=None))
        status, _ = run.run(None, None)
        if status != K.LOST or run.meta[K.M_NODES] < 20:
            continue
        assert Beam(Root(board, rules), 64).expand(1, NO_MARKS) > 0
        assert Beam(Root(board, rules), 64).expand(1, run.table) == 0
        checked += 1
    assert checked >= 5, checked


@pytest.mark.parametrize("width", [1, 3, 8, 40])
def test_a_level_keeps_the_best_few_of_each_abstract_position(width):
    rng = np.random.default_rng(width)
    slots = 1 << (2 * width - 1).bit_length()
    for _ in range(200):
        count = int(rng.integers(0, 12 * width))
        keys = rng.permutation(10 * count + 1)[:count].astype(np.int64) - 5 * count  # distinct: one right answer
        abstract = rng.integers(0, min(slots, 1 + int(rng.integers(1, 3 * width + 2))), size=count).astype(np.uint64)
        chosen = np.zeros(width, dtype=np.int64)
        kept = B._choose(keys, abstract, count, chosen, np.zeros(slots, np.uint64), np.zeros(slots, np.int32))
        assert list(chosen[:kept]) == choose_plainly(list(keys), list(abstract), width)


def test_dealt_cards_count_the_prefixes_and_key_only_the_abstract_position():
    rules = GAMES["bakers-dozen"]
    board, heights, found, *_ = Root(deal(rules, 5), rules).copy()
    origin, origin_heights = board.copy(), heights.copy()
    dealt, key = B.dealt_cards(board, heights, found, origin, origin_heights)
    assert dealt == heights.sum()

    def move(src, dst):
        board[dst, heights[dst]] = board[src, heights[src] - 1]
        heights[dst] += 1
        heights[src] -= 1

    tops = board[np.arange(board.shape[0]), heights - 1] // 4
    src, host, other = next(  # a top card with two hosts (piles whose top is one rank higher)
        (p, q, r)
        for p in range(len(tops))
        for q in range(len(tops))
        for r in range(q + 1, len(tops))
        if p not in (q, r) and tops[q] == tops[r] == tops[p] + 1
    )
    move(src, host)
    moved, moved_key = B.dealt_cards(board, heights, found, origin, origin_heights)
    assert moved == dealt - 1 and moved_key != key
    move(host, other)  # the moved card again, to the other host: the same abstract position
    assert B.dealt_cards(board, heights, found, origin, origin_heights) == (moved, moved_key)
