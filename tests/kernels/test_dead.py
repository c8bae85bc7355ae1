"""The first dead test, the greedy relaxation (solver/kernels/dead.py): on positions whose fate is known by
hand; held to the plain relaxed game of tests/naive.py on the positions of tests/rule_walks.py (every
game, worrying back, PySolFC's rules, random variants; redeals left and spent), counting where it fires;
and its claim, that a position it calls dead is lost, held to the reference verdicts of the shared corpus."""

from collections import Counter

import numpy as np
import pytest
from corpus import SETS, deals
from harness import KernelPosition
from naive import first_pile_trap_plainly, relaxed_dead_plainly
from rule_walks import NAMES, POSITIONS, positions

from solver.game.board import parse_board
from solver.game.premises import dead_test_applies
from solver.game.rules import GAMES, with_worrying_back
from solver.kernels import codes
from solver.kernels import dead as D
from solver.search.arrays import kernel_rules, state_arrays


def relaxed_dead(text, rules):
    board = parse_board(text).validate(rules)
    arr, heights, found = state_arrays(board, rules)
    scratch = np.zeros(codes.SCRATCH_SIZE, dtype=np.int32)
    return D.relaxed_dead(arr, heights, found, kernel_rules(rules), scratch)


BD3 = GAMES["bakers-dozen"].reduced(ranks=3, piles=4)  # 3s play the King


def test_a_king_over_a_lower_card_of_its_suit_is_dead_where_spaces_stay_empty():
    # Piles are written bottom first.  3C (the top rank) lies on AC: it can only go up, after AC.
    text = "AC 3C\n3D 2D AD 2C\n3H 2H AH\n3S 2S AS"
    assert relaxed_dead(text, BD3)
    # Spanish Patience: once pile 3 is cleared, 3C may go there.
    assert not relaxed_dead(text, GAMES["spanish-patience"].reduced(ranks=3, piles=4))


def test_cards_already_up_host_nothing():
    # 2C must leave before AC beneath it, and likewise 2H and 2S; their hosts are the 3s.
    # 3D is up and hosts nothing; 3C, 3H and 3S lie under those very 2s.
    text = "Foundations: D-3\n3C AC 2C\nAH 3H 2H\nAS 3S 2S"
    assert relaxed_dead(text, GAMES["bakers-dozen"].reduced(ranks=3, piles=3))


def test_a_winnable_position_is_not_dead():
    text = "3C 2C AC\n3D 2D AD\n3H 2H AH\n3S 2S AS"
    assert not relaxed_dead(text, BD3)


def dead_counts(name: str) -> Counter:
    """Hold ``relaxed_dead`` to the plain relaxed game on the positions of ``name``; count what happened."""
    seen = Counter()
    for rules, board in positions(name):
        k = KernelPosition(board, rules)
        dead = relaxed_dead_plainly(board, rules)
        assert k.relaxed_dead() == dead, (name, dead, rules, board.to_text(rules))
        applies = board.redeals == 0 and not (rules.sequence_moves and rules.both_ways)
        trapped = bool(first_pile_trap_plainly(board, rules))  # the other dead test (solver/kernels/trap.py)
        assert k.dead_here() == ((applies and dead) or trapped), (name, rules, board.to_text(rules))
        seen["positions"] += 1
        seen["dead"] += dead
        seen["dead where it applies"] += applies and dead
    return seen


@pytest.mark.parametrize("name", NAMES)
def test_relaxed_dead_is_the_plain_relaxed_game_s(name):
    """``relaxed_dead`` decides as the plain relaxed game's fixed point, and the search applies it
    (``dead_here``) exactly where its proof holds: no redeal left, and no runs where building goes both ways
    (beside the first pile's trap, held to its own plain model)."""
    seen = dead_counts(name)
    assert seen["positions"] >= POSITIONS and seen["dead where it applies"] >= 20, seen
    assert seen["positions"] - seen["dead"] >= 100, seen


def test_with_worrying_back_a_card_up_hosts_in_the_relaxed_game():
    """Where it matters, which walks rarely meet (no position of the walks above): 2S, on AS, has no host
    in the tableau, so the relaxed game is stuck; with worrying back, 3C, 3D and 3H are up and count as
    hosts, so 2S leaves and the rest follow.  (The real game is lost all the same: nothing hosts a Three.)"""
    rules = GAMES["bakers-dozen"].reduced(3, 3)
    board = parse_board("Foundations: C-3 D-3 H-3\n3S AS 2S\n-\n-\n").validate(rules)
    for game, dead in ((rules, True), (with_worrying_back(rules), False)):
        assert relaxed_dead_plainly(board, game) == dead == KernelPosition(board, game).relaxed_dead()


# Sets of the shared corpus where the relaxation fires at the deal, one for each part of its proof: building by
# rank with spaces that take nothing, a King or any card; runs building down (Perseverance; Castles in Spain,
# into spaces too, with face-down cards); building both ways one card at a time (Indefatigable, Royal Family);
# two decks; worrying back (up cards as hosts); PySolFC's rules; rules files' variants.
DEAD_AT_THE_DEAL = [
    "small/bakers-dozen", "small/portuguese-solitaire", "small/spanish-patience", "spent/perseverance",
    "small/castles-in-spain", "small/martha", "small/vineyard", "spent/indefatigable", "spent/royal-family",
    "small/bakers-dozen-2-decks", "spent/unusual", "worry/bakers-dozen", "worry/spanish-patience-ii",
    "pysolfc/spanish-patience", "pysolfc/castles-in-spain", "pysolfc-midgame/spanish-patience", "variants",
]  # fmt: skip


def test_every_corpus_deal_the_relaxation_calls_dead_is_lost():
    """The claim of "Dead positions": where the relaxed game cannot clear every pile, the real game cannot be
    won.  Every deal of the shared corpus (tests/corpus.py) that the relaxation calls dead, where it applies
    (no redeal left, and no runs building both ways), is lost by the reference verdict stored there; and it
    fires on at least 10 deals of each set above."""
    fired = Counter()
    for name in SETS:
        for d in deals(name):
            if d.board.redeals != 0 or not dead_test_applies(d.rules):
                continue
            if KernelPosition(d.board, d.rules).relaxed_dead():
                assert not d.won, (name, d.board.to_text(d.rules))
                fired[name] += 1
    assert {name: fired[name] for name in DEAD_AT_THE_DEAL if fired[name] < 10} == {}, fired
