"""The safe foundation moves (solver/kernels/safe_moves.py, ``play_safe_moves``) held to the plain rule of
tests/naive.py, written from the module's statement, on the positions of tests/rule_walks.py (every game,
worrying back, PySolFC's rules, random variants; redeals left and spent).  The test counts where the rule
fires and where it holds back, and asserts that both happen, so that agreement means something.
(tests/test_agreement.py checks the rules end to end.)"""

from collections import Counter

import pytest
from harness import KernelPosition
from naive import SAFE_SUIT, goes_up, safe_moves_plainly, safe_rule_plainly
from rule_walks import NAMES, POSITIONS, RULES, positions

from solver.game.rules import GAMES


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
