"""The score (solver/kernels/score.py) and the move order it gives the depth-first search's first run.

The order changes how fast a search finds a win, never what it finds (every move is still tried; the
agreement tests run the default schedule, whose first run is scored).  Here: the kernel's score is the
plain count of tests/naive.py, and ``order_by_score`` sorts a position's moves by their children's plain
score, foundation moves first, ties in the generator's order, leaving the position as it was.
"""

import random

import numpy as np
import pytest
from harness import KernelPosition
from naive import safe_moves_plainly, score_plainly, walk_positions

from solver.game.engine import apply_move
from solver.game.rules import GAMES
from solver.kernels import codes
from solver.kernels import score as S
from solver.kernels.bundles import Position
from solver.search.arrays import engine_move, state_arrays

# The games the scored run plays (no redeal); one deck, foundations up from the Ace, as the plain score reads.
SCORED = ["bakers-dozen", "good-measure", "portuguese-solitaire"]


def _positions(game: str, deals: int):
    rules = GAMES[game].reduced(6, 5)
    for origin, board in walk_positions(rules, random.Random(f"score-{game}"), deals):
        yield rules, origin, board


@pytest.mark.parametrize("game", SCORED)
def test_the_kernel_s_score_is_the_plain_count(game):
    checked = 0
    for rules, origin, board in _positions(game, 40):
        k = KernelPosition(board, rules)
        dealt_board, dealt_heights, _ = state_arrays(origin, rules)
        dealt = sum(int(S.prefix_length(k.board, k.heights, dealt_board, dealt_heights, p)) for p in range(rules.piles))
        lowest = np.zeros(4, dtype=np.int32)
        assert S.score(k.board, k.heights, k.found, dealt, lowest, S.DEALT_WEIGHT) == score_plainly(board, origin)
        checked += 1
    assert checked > 300


def _child_score(board, move, origin, rules) -> int:
    """The plain score of the child a kernel move makes, once its safe moves are played."""
    child, _ = safe_moves_plainly(apply_move(board, engine_move(*move), rules), rules)
    return score_plainly(child, origin)


@pytest.mark.parametrize("game", SCORED)
def test_moves_go_best_scored_child_first_and_the_position_is_left_alone(game):
    reordered = 0
    for rules, origin, board in _positions(game, 40):
        k = KernelPosition(board, rules)
        generated = k.moves()
        if len(generated) < 2:
            continue
        src = np.array([s for s, _ in generated] + [0] * 8, dtype=np.int16)
        dst = np.array([d for _, d in generated] + [0] * 8, dtype=np.int16)
        autos = (np.zeros(codes.MAX_CARDS, dtype=np.int16), np.zeros(codes.MAX_CARDS, dtype=np.int16))
        before = k.snapshot()
        S.order_by_score(
            Position(k.board, k.heights, k.found, k.keys), k.rule_codes, k.zobrist, k.meta, (src, dst), 0,
            len(generated), k.scratch, k.saved, autos, state_arrays(origin, rules)[:2],
        )  # fmt: skip
        assert all(np.array_equal(a, b) for a, b in zip(before, k.snapshot(), strict=True))
        ordered = [(int(src[i]), int(dst[i])) for i in range(len(generated))]
        assert sorted(ordered) == sorted(generated)
        ups = [m for m in generated if m[1] == codes.FOUNDATION]
        assert ordered[: len(ups)] == ups  # foundation moves first, as generated
        rest = [m for m in generated if m[1] != codes.FOUNDATION]
        scores = [_child_score(board, move, origin, rules) for move in rest]
        expected = [rest[i] for i in sorted(range(len(rest)), key=lambda i: -scores[i])]  # stable: ties as generated
        assert ordered[len(ups) :] == expected, board.to_text()
        reordered += ordered != generated
    assert reordered > 100
