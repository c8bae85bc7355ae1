"""The safe foundation moves (solver/kernels/safe_moves.py, ``play_safe_moves``) held to the plain rule of
tests/naive.py, written from the module's statement, on the positions of tests/rule_walks.py (every game,
worrying back, PySolFC's rules, random variants; redeals left and spent).  The test counts where the rule
fires and where it holds back, and asserts that both happen, so that agreement means something.  With two
decks, the premise that both copies of the rank below are up, which the one-deck rule lacks and would lose
a win by.  Then the claim itself, that playing them loses no win, against the reference search.
(tests/test_agreement.py checks the rules end to end.)"""

from collections import Counter

import pytest
from harness import PLAIN, KernelPosition
from naive import SAFE_SUIT, goes_up, safe_moves_plainly, safe_rule_plainly
from rule_walks import NAMES, POSITIONS, RULES, positions

from solver.game.board import Board, parse_board
from solver.game.cards import card_text, parse_card
from solver.game.engine import Move, apply_move, reference_search
from solver.game.rules import GAMES
from solver.kernels import codes
from solver.kernels import safe_moves as SM
from solver.search import WON, Budget, solve
from solver.search.arrays import state_arrays

BD2 = GAMES["bakers-dozen-2-decks"]


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card(t) for t in text.split())


def safe_counts(name: str) -> Counter:
    """Hold ``play_safe_moves`` to the plain rule on the positions of ``name``; count what happened."""
    seen = Counter()
    for rules, board in positions(name):
        k = KernelPosition(board, rules)
        played = k.play_safe_moves()
        # The kernel never plays the last card of a foundation by SAFE_NO_HOSTS (naive.is_safe_plainly).
        expected, cards = safe_moves_plainly(board, rules, last_cards=False)
        assert (k.engine_board(), played) == (expected, len(cards)), (name, rules, board.to_text(rules))
        seen["positions"] += 1
        seen["fired"] += played > 0
        seen["last card missed"] += len(safe_moves_plainly(board, rules)[1]) > played
        playable = any(goes_up(expected, pile[-1], rules) for pile in expected.piles if pile)
        if safe_rule_plainly(rules) is None:
            seen["no rule, a card may go up"] += playable
        elif board.redeals != 0:
            seen["a redeal left, a card may go up"] += playable
        else:
            seen["a card may go up, not safe"] += playable
    return seen


@pytest.mark.parametrize("name", NAMES)
def test_safe_moves_are_the_plain_rule_s(name):
    """``play_safe_moves`` plays exactly the cards the plain rule lets go up, to its fixed point, and
    leaves the position the engine reaches by playing them."""
    seen = safe_counts(name)
    rules = RULES.get(name, GAMES["bakers-dozen"])
    assert seen["positions"] >= POSITIONS, seen
    if name == "variants":
        assert seen["fired"] >= 50 and seen["no rule, a card may go up"] >= 20, seen
        assert seen["a card may go up, not safe"] >= 20, seen
    elif safe_rule_plainly(rules) is None:
        assert seen["no rule, a card may go up"] >= 100, seen
    else:
        assert seen["fired"] >= 100, seen
        assert seen["a redeal left, a card may go up"] >= 20 or not rules.redeals, seen
        # Building by suit with one deck, every card a foundation takes is safe: nothing to hold back.
        always = safe_rule_plainly(rules) == SAFE_SUIT and rules.decks == 1
        assert seen["a card may go up, not safe"] >= 20 or always, seen


# Found by a search of small two-deck positions: 2H may go up (onto H-A), every foundation is at rank 0 or
# more, so the one-deck rule SAFE_LOW would play it at once; but the other 2H then has no foundation to go
# to while this one's place is still needed, and the position, won, becomes lost.  Hence the two-deck premise
# of solver/kernels/safe_moves.py: both copies of the rank below must be up.
NOT_SAFE_WITH_TWO_DECKS = """Foundations: C-0 C-0 D-0 D-0 H-A H-0 S-A S-A
3C 3S 3D AH 2D 2H
3D 3S 3C 2H 2S
3H AC AD AC 2C
3H 2S 2D AD 2C
"""


def test_the_one_deck_safe_rule_would_lose_a_two_deck_win():
    rules = BD2.reduced(3, 4)
    board = parse_board(NOT_SAFE_WITH_TWO_DECKS, rules).validate(rules)
    assert reference_search(board, rules) is not None
    assert reference_search(apply_move(board, Move(0, None), rules), rules) is None
    grid, heights, found = state_arrays(board, rules)
    assert not SM._safe(grid[0, heights[0] - 1], found, found.min(), codes.SAFE_LOW)  # the premise says no
    assert solve(board, rules, Budget(seconds=None)).verdict == WON


def test_a_hundred_and_four_safe_moves_in_a_row():
    """Every card goes up by safe moves alone: the arrays of safe moves hold all 104 (they held 64, enough for
    one deck; a reviewer found the overflow)."""
    piles = [cards("KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AC")]
    piles = [tuple(c + s for c in piles[0]) for s in range(4)] * 2 + [()] * 18
    board = Board(tuple(piles), (0,) * 8).validate(BD2)
    result = solve(board, BD2, Budget(seconds=60), schedule=PLAIN)
    assert result.verdict == WON and len(result.moves) == 104 and result.safe_moves >= 100


# The names whose rules have a safe-move rule (with worrying back, none has: no safe moves to check).
WITH_A_SAFE_RULE = [name for name in NAMES if safe_rule_plainly(RULES.get(name, GAMES["bakers-dozen"])) is not None]


@pytest.mark.parametrize("name", WITH_A_SAFE_RULE)
def test_a_won_position_is_still_won_after_its_safe_moves(name):
    """The claim of "Safe foundation moves": playing them loses no win.  On the small positions of
    tests/rule_walks.py with no redeal left where the rule's statement (tests/naive.py, the kernel's twin by
    the test above) plays some card up and the reference search wins, it still wins once they are played;
    20 such positions for each game's rule (SAFE_LOW, SAFE_SUIT with runs, both ways and two decks,
    SAFE_ALTERNATE, SAFE_NO_HOSTS), PySolFC's Indefatigable and the random variants."""
    won = 0
    for rules, board in positions(name):
        if board.redeals != 0 or board.cards_in_play() > 24:
            continue
        after, cards = safe_moves_plainly(board, rules)
        if not cards:
            continue
        try:
            if reference_search(board, rules, max_states=2_000) is None:
                continue
        except RuntimeError:  # past the reference's budget: nothing to compare
            continue
        assert reference_search(after, rules) is not None, (name, [card_text(c) for c in cards], board.to_text(rules))
        won += 1
        if won == 20:
            break
    assert won == 20, won
