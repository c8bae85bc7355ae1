"""The trap kernels (solver/kernels/trap.py) at their limits: a first pile as long as the first pile's game
has room for, where the kernel gives up (says nothing) rather than search; and a hash shared by two
positions of the first piles' game, which stay two positions."""

import numpy as np

from solver.game.cards import make_card
from solver.kernels import trap as T

SPADES = 3


def spade(rank: int) -> int:
    return make_card(rank, SPADES)


def first_pile_board(top_first: list[int], elsewhere: list[int], piles: int = 8):
    """A board whose first pile is ``top_first`` (its top first) and whose second holds ``elsewhere``."""
    board = np.zeros((piles, 40), np.int16)
    heights = np.zeros(piles, np.int32)
    board[0, : len(top_first)] = top_first[::-1]
    board[1, : len(elsewhere)] = elsewhere
    heights[0], heights[1] = len(top_first), len(elsewhere)
    return board, heights


def test_a_first_pile_as_long_as_the_game_s_room_is_given_up_on_where_one_card_less_is_trapped():
    # Ranks 1-5 up; the 32 cards left all in the first pile (8 piles: four a pile in play).  Its top, 7S, is
    # held (8S, its host, and 6S lie beneath it), 6S cannot be put on it (it is in the pile), so the game
    # only cuts to the top four: 8S, 6S and the fourth card are trapped.
    found = np.array([5, 5, 5, 5], np.int32)
    rest = [make_card(rank, suit) for rank in range(6, 14) for suit in range(4)]
    top = [spade(7), spade(8), spade(6)]
    rest = [card for card in rest if card not in top]
    pile = top + rest
    assert len(pile) == T.GAME_CARDS
    board, heights = first_pile_board(pile[:-1], pile[-1:])
    assert T.first_pile_trap_cards(board, heights, found, 13) == sum(
        1 << card for card in (spade(8), spade(6), pile[3])
    )
    board, heights = first_pile_board(pile, [])  # the game's K would have no room for a card put on its top
    assert T.first_pile_trap_cards(board, heights, found, 13) == 0
    assert not T.first_pile_trapped(board, heights, found, 13)


def _position(*piles: list[int]) -> np.ndarray:
    """A row of the first piles' game: these piles known, each top first."""
    row = np.zeros(T._CARDS + 52, np.int16)
    row[T._KNOWN] = len(piles)
    at = T._CARDS
    for i, pile in enumerate(piles):
        row[T._LENGTHS + i] = len(pile)
        row[at : at + len(pile)] = pile
        at += len(pile)
    return row


def _table(size: int = 8):
    return np.zeros((size, T._CARDS + 52), np.int16), np.zeros(size, np.uint64), np.zeros(2 * size, np.int32)


def test_two_positions_of_the_piles_game_with_one_hash_are_two_positions():
    a = _position([spade(9), spade(4)], [spade(7)])
    b = _position([spade(4), spade(9)], [spade(7)])
    # Where b's hash leads, a stored under b's hash: as if their 64-bit hashes were one.
    positions, hashes, slots = _table()
    assert T._store(positions, hashes, slots, 0, b) == 1
    slot = int(np.flatnonzero(slots)[0])
    h = hashes[0]
    positions, hashes, slots = _table()
    positions[0], hashes[0], slots[slot] = a, h, 1
    assert T._store(positions, hashes, slots, 1, b) == 2  # not taken for a: a new position
    assert np.array_equal(positions[1], b) and hashes[1] == h and np.count_nonzero(slots) == 2
    assert T._store(positions, hashes, slots, 2, b) == 2  # and known once stored
