"""The first dead test, the greedy relaxation (solver/kernels/dead.py), on positions whose fate is known by hand."""

import numpy as np

from solver.game.board import parse_board
from solver.game.rules import GAMES
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
