"""A position's hash (solver/kernels/position.py, "Hash"): its keys tell apart what a redeal, a face-down
card or a second deck tells apart, and no more.  (The incremental hash against the hash computed afresh,
and moves played and taken back, are checked along the walks of tests/kernels/test_moves.py.)"""

from dataclasses import replace

import pytest
from corpus import boards

from solver.game.board import Board
from solver.game.cards import parse_card
from solver.game.rules import GAMES, UNLIMITED
from solver.kernels import position as P
from solver.search.arrays import ORDERED_ZOBRIST, down_mask, position_keys, state_arrays

FAMILY = [g for g in GAMES if not (GAMES[g].build == "rank" and not GAMES[g].redeals) or GAMES[g].decks > 1]
BD2 = GAMES["bakers-dozen-2-decks"]


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card(t) for t in text.split())


@pytest.mark.parametrize("game", FAMILY)
def test_keys_tell_apart_what_a_redeal_tells_apart(game):
    """Two positions with the same piles in another order, or another number of redeals left, differ
    where a redeal is left; alike once none is."""
    rules, board = boards(f"small/{game}")[7]
    zobrist = position_keys(rules)
    swapped = replace(board, piles=(board.piles[1], board.piles[0], *board.piles[2:]))

    def key(b: Board) -> list[int]:
        piles, heights, _ = state_arrays(b, rules)
        return list(P.position_hash(piles, heights, zobrist, b.redeals, down_mask(b, rules)))

    # Two decks key cards by place (position.py, "Hash"): pile order tells positions apart there too.
    assert board.piles[0] != board.piles[1] and (key(board) != key(swapped)) == (rules.redeals != 0 or rules.decks > 1)
    if rules.redeals not in (0, UNLIMITED):
        spent = Board(board.piles, board.foundations, redeals=0)
        assert key(spent) != key(board)
        spent_swapped = Board(swapped.piles, board.foundations, redeals=0)
        assert (key(spent) == key(spent_swapped)) == (rules.redeals == 0)


@pytest.mark.parametrize("game", ["castles-in-spain", "martha"])
def test_keys_tell_a_face_down_card_from_a_face_up_one(game):
    rules, board = boards(f"small/{game}")[7]
    zobrist = position_keys(rules)
    piles, heights, _ = state_arrays(board, rules)
    turned_up = replace(board, down=board.down - {min(board.down)})
    keys = [list(P.position_hash(piles, heights, zobrist, 0, down_mask(b, rules))) for b in (board, turned_up)]
    assert board.down and keys[0] != keys[1]


def test_positional_keys_tell_apart_what_pairs_cannot():
    """ "a 6S 5H / b 6S" and "a 6S / b 6S 5H" hold the same (card, card beneath) pairs; keyed by place they
    differ (solver/kernels/position.py, "Hash")."""
    one = Board((cards("KD 6S 5H"), cards("KC 6S")), (0,) * 8)
    two = Board((cards("KD 6S"), cards("KC 6S 5H")), (0,) * 8)
    rules = BD2.reduced(13, 2)

    def key(board, zobrist):
        piles, heights, _ = state_arrays(board, rules)
        return list(P.position_hash(piles, heights, zobrist, 0, 0))

    assert key(one, ORDERED_ZOBRIST) == key(two, ORDERED_ZOBRIST)  # why two decks do not key by the card beneath
    assert key(one, position_keys(rules)) != key(two, position_keys(rules))
