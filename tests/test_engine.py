"""The reference engine follows RULES.md move by move."""

import pytest

from solver.game.board import parse_board
from solver.game.engine import IllegalMoveError, Move, apply_move, is_solution, legal_moves, replay
from solver.game.rules import GAMES

BD, SP, PS = GAMES["bakers-dozen"], GAMES["spanish-patience"], GAMES["portuguese-solitaire"]
# A 2-rank deck: the 2s play the King.
SMALL = {name: GAMES[name].reduced(ranks=2, piles=3) for name in GAMES}


def test_tableau_builds_down_by_rank_any_suit():
    board = parse_board("AC 2D\nAD AH\nAS 2S\n2C 2H")
    rules = GAMES["bakers-dozen"].reduced(ranks=2, piles=4)
    assert Move(1, 0) in legal_moves(board, rules)  # AH onto 2D: any suit
    assert Move(1, 2) in legal_moves(board, rules)
    assert Move(0, 2) not in legal_moves(board, rules)  # 2D onto 2S: not down by one
    assert Move(1, None) in legal_moves(board, rules)  # AH to its foundation
    assert Move(0, None) not in legal_moves(board, rules)  # 2D before AD


@pytest.mark.parametrize(
    "game, king_ok, other_ok",
    [("bakers-dozen", False, False), ("spanish-patience", True, True), ("portuguese-solitaire", True, False)],
)
def test_what_an_empty_pile_takes(game, king_ok, other_ok):
    rules = SMALL[game]
    board = parse_board("AC 2C AD\n-\n2D AH 2H AS 2S")
    moves = legal_moves(board, rules)
    assert (Move(0, 1) in moves) == other_ok  # AD to the empty pile
    assert (Move(2, 1) in moves) == king_ok  # 2S (the top rank) to the empty pile


def test_foundation_cards_never_come_back_and_illegal_moves_are_refused():
    rules = SMALL["spanish-patience"]
    board = parse_board("2C AC\n-\n2D AD 2H AH 2S AS")
    after = apply_move(board, Move(0, None), rules)
    assert after.foundations == (1, 0, 0, 0)
    assert all(m.source is not None for m in legal_moves(after, rules))
    with pytest.raises(IllegalMoveError):
        apply_move(board, Move(2, 0), rules)  # AS onto AC
    with pytest.raises(IllegalMoveError):
        apply_move(board, Move(1, 0), rules)  # from an empty pile


def test_replay_checks_every_move():
    rules = SMALL["bakers-dozen"]
    board = parse_board("2C AC\n2D AD 2H\nAH 2S AS")
    # AC, 2C and AS go up; then 2S onto 2H is not down by one: illegal at move 4.
    bad = [Move(0, None), Move(0, None), Move(2, None), Move(2, 1)]
    assert not is_solution(board, bad, rules)
    with pytest.raises(IllegalMoveError, match="move 4"):
        replay(board, bad, rules)
    good = [Move(0, None), Move(0, None), Move(2, None), Move(2, None), Move(2, None), Move(1, None), Move(1, None),
            Move(1, None)]  # fmt: skip
    assert replay(board, good, rules).is_won()
    assert is_solution(board, good, rules)
    assert not is_solution(board, good[:-1], rules)
