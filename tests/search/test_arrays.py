"""The kernels' view of a game (solver/search/arrays.py).

PySolFC's Spanish Patience, whose foundations build by alternate colour: the kernels play its quotient
game, two suits in two decks ("Foundations by alternate colour").  Held here move by move to the real
game as the reference engine plays it, with the plain quotient of tests/naive.py.  And Royal Family,
whose foundations build down: its ranks turned over for the kernels, its zigzag piles within their rows."""

import random

import numpy as np
import pytest
from corpus import deals
from harness import KernelPosition, check_agreement
from naive import quotient

from solver.game.cards import rank_of, suit_of
from solver.game.deals import deal, pysolfc_layout, random_deal
from solver.game.engine import Move, apply_move, is_solution, legal_moves
from solver.game.rules import GAMES, with_pysolfc
from solver.kernels import position as P
from solver.search.arrays import engine_line, engine_move, kernel_card, position_keys, state_arrays
from solver.search.result import Budget
from solver.search.solve import solve
from solver.words import LOST, WON

RULES = with_pysolfc(GAMES["spanish-patience"])
SIZES = [(3, 3), (4, 3), (4, 4), (5, 4), (6, 5)]


def _starts(count: int, rng: random.Random):
    """Whole deals as PySolFC lays them out, then small random deals."""
    for i in range(count):
        if i < 3:
            yield RULES, pysolfc_layout(RULES, i + 1).validate(RULES)
        else:
            rules = RULES.reduced(*SIZES[i % len(SIZES)])
            yield rules, random_deal(rules, rng).validate(rules)


def test_the_quotient_game_moves_as_the_real_one():
    """At every position of random walks of the real game: the kernels' arrays are the quotient's; the real
    moves' children, seen in the quotient, are exactly the quotient's moves' children; and a card passing
    between foundations leaves the quotient position as it was (so the kernels may skip it)."""
    rng = random.Random("alternate-foundations")
    checked = passes = backs = 0
    for rules, board in _starts(40, rng):
        for _ in range(90):
            shadow, shadow_rules = quotient(board, rules)
            assert position_keys(rules) is position_keys(shadow_rules)
            for mine, theirs in zip(state_arrays(board, rules), state_arrays(shadow, shadow_rules), strict=True):
                assert np.array_equal(mine, theirs), board.to_text()
            legal = legal_moves(board, rules)
            children = set()
            for move in legal:
                child = quotient(apply_move(board, move, rules), rules)[0]
                if move.source < 0 and move.target is None:
                    assert child == shadow, (move, board.to_text())
                    passes += 1
                else:
                    children.add(child)
            assert children == {apply_move(shadow, m, shadow_rules) for m in legal_moves(shadow, shadow_rules)}
            checked += 1
            if not legal:
                break
            ups = [m for m in legal if m.target is None]
            move = rng.choice(ups if ups and rng.random() < 0.6 else legal)
            backs += move.source < 0 and move.target is not None
            board = apply_move(board, move, rules)
    assert checked > 1500 and passes > 30 and backs > 30, (checked, passes, backs)


def test_a_kernel_line_becomes_the_game_s_own_moves():
    """``engine_line`` names the foundation each card goes onto and the one a card comes back from; the
    result replays under the real rules (a whole deal, and small ones where cards come back)."""
    won = backs = 0
    rng = random.Random("alternate-foundations-lines")
    for rules, board in _starts(30, rng):
        result = solve(board, rules, Budget(seconds=20), shorten_moves=False)
        if result.verdict != "won":
            continue
        assert is_solution(board, result.moves, rules)
        assert all(m.foundation is not None for m in result.moves if m.target is None)
        won += 1
        backs += any(m.source < 0 for m in result.moves)
    assert won >= 15 and backs >= 1, (won, backs)


def test_a_line_of_another_game_is_left_as_it_is():
    rules = GAMES["bakers-dozen"]
    line = [Move(0, 1), Move(2, None)]
    assert engine_line(pysolfc_layout(rules, 1), line, rules) is line


@pytest.mark.parametrize("number", [1, 2])
def test_whole_deals_are_won_with_lines_the_engine_replays(number):
    board = pysolfc_layout(RULES, number)
    result = solve(board, RULES, Budget(seconds=30))
    assert result.verdict == "won" and is_solution(board, result.moves, RULES)


def test_positions_in_mid_game_agree_with_the_reference_search():
    """Small deals some random moves in: foundations of mixed suits at every height, some cards back on the
    tableau; the solver's verdict is the plain reference search's on the real rules, lost ones included."""
    corpus = deals("pysolfc-midgame/spanish-patience")
    mixed = sum(any(suit_of(c) != i for i, held in enumerate(d.board.founded) for c in held) for d in corpus)
    counts = check_agreement(corpus)
    assert counts[WON] >= 50 and counts[LOST] >= 50 and mixed >= 100, (counts[WON], counts[LOST], mixed)


def test_royal_family_cards_turn_over_for_the_kernel():
    rules = GAMES["royal-family"]
    assert [rank_of(kernel_card(c, rules)) for c in (48, 0, 20)] == [1, 13, 8]


@pytest.mark.parametrize("pysolfc", [False, True])
def test_royal_family_s_tall_piles_fit_the_kernel_s_rows(pysolfc):
    """Up or down by colour a pile may zigzag (QC JD QS JH TC 9D ...) far past a run of the deck's ranks:
    walks that heap cards onto the tallest pile stay within the kernel's rows (search/arrays.py,
    ``pile_room``; numba checks no bounds), and kernel and engine agree all the way."""
    rules = with_pysolfc(GAMES["royal-family"]) if pysolfc else GAMES["royal-family"]
    rng, tallest = random.Random("tall-piles"), 0
    for number in range(1, 41):
        board = pysolfc_layout(rules, number) if pysolfc else deal(rules, number)
        k = KernelPosition(board, rules)
        for _ in range(300):
            moves = [(s, d) for s, d in k.moves() if s != P.REDEAL]
            if not moves:
                break
            onto = [(s, d) for s, d in moves if d >= 0 and k.heights[d] == k.heights.max()]
            src, dst = rng.choice(onto if onto and rng.random() < 0.7 else moves)
            move = engine_move(src, dst)
            k.play(src, dst)
            board = apply_move(board, move, rules)
            assert k.engine_board() == board, (number, move)
            assert k.board.shape[1] > max(len(p) for p in board.piles)
            tallest = max(tallest, max(len(p) for p in board.piles))
    assert tallest > 4 + rules.ranks + 1, tallest  # past the rows a deck's ranks would give
