"""The kernels' view of a game: rules as codes, a position as arrays, a kernel move as an engine move.

Data flows one way: a :class:`~solver.game.board.Board` and its
:class:`~solver.game.rules.Rules` become these arrays and codes here, once;
the kernels (:mod:`solver.kernels`) read nothing else; their moves come back
through :func:`engine_move`.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from ..game import premises
from ..game.board import Board, BoardError
from ..game.engine import REDEAL, Move
from ..game.rules import BUILD_ALTERNATE, BUILD_RANK, BUILD_SUIT, EMPTY_ANY, EMPTY_KING, EMPTY_NONE, Rules
from ..kernels import codes
from ..kernels.bundles import KernelRules
from ..kernels.capacity import capacity_keys
from ..kernels.position import zobrist_keys
from ..kernels.suitblind import walk_keys

ZOBRIST = zobrist_keys(ordered=False)  # the depth-first search's and the beam's position keys
ORDERED_ZOBRIST = zobrist_keys(ordered=True)  # ... where a redeal makes the order of the piles matter
POSITIONAL_ZOBRIST = zobrist_keys(ordered=True, positional=True)  # ... with two decks (position.py, "Hash")
CAPACITY_KEYS = capacity_keys()  # the capacity relaxation's abstract position keys
WALK_KEYS = walk_keys()  # the suit-blind walks' position keys

_EMPTY_CODES = {EMPTY_NONE: codes.EMPTY_NONE, EMPTY_ANY: codes.EMPTY_ANY, EMPTY_KING: codes.EMPTY_KING}
_BUILD_CODES = {BUILD_RANK: codes.BUILD_RANK, BUILD_SUIT: codes.BUILD_SUIT, BUILD_ALTERNATE: codes.BUILD_ALTERNATE}
_SAFE_CODES = {
    premises.SAFE_NONE: codes.SAFE_OFF,
    premises.SAFE_LOW: codes.SAFE_LOW,
    premises.SAFE_SUIT: codes.SAFE_SUIT,
    premises.SAFE_ALTERNATE: codes.SAFE_ALTERNATE,
    premises.SAFE_NO_HOSTS: codes.SAFE_NO_HOSTS,
}  # the safe-move rules (solver/game/premises.py says which covers which rules)


def kernel_rules(rules: Rules) -> KernelRules:
    return KernelRules(
        rules.ranks,
        _EMPTY_CODES[rules.empty_pile],
        bool(rules.worrying_back),
        _BUILD_CODES[rules.build],
        bool(rules.both_ways),
        bool(rules.sequence_moves),
        bool(rules.runs_by_spaces),
        bool(rules.runs_into_spaces),
        _SAFE_CODES[premises.safe_rule(rules)],
        premises.lone_card_rule_applies(rules),
        premises.dead_test_applies(rules),
    )


def position_keys(rules: Rules) -> np.ndarray:
    """The hash keys the kernels use for ``rules`` (solver/kernels/position.py, "Hash")."""
    if rules.decks > 1:
        return POSITIONAL_ZOBRIST
    return ORDERED_ZOBRIST if rules.redeals else ZOBRIST


def kernel_card(card: int, rules: Rules) -> int:
    """A card as the kernels see it: ranks turned over where foundations build down (position.py)."""
    if not rules.foundations_down:
        return card
    return (rules.ranks - 1 - card // 4) * 4 + card % 4


def pile_room(board: Board, rules: Rules) -> int:
    """The most cards any pile can come to hold from this position: the kernels' arrays have as many rows
    (numba checks no bounds, so a taller pile would write over the next one's).

    A pile is cards never moved since the deal or the last redeal, with a chain on them, each card built
    on the one beneath.  Building down, a chain has fewer cards than ranks; up or down by suit (one deck)
    too; up or down by colour it may zigzag through every card.  A redeal deals four a pile, and the first
    piles one more each in turn when the cards are more than four a pile (cards back from the foundations)."""
    cards = rules.cards if rules.worrying_back else board.cards_in_play()
    dealt = max(len(p) for p in board.piles)
    if rules.redeals:
        dealt = max(dealt, 4 + -(-max(cards - 4 * rules.piles, 0) // rules.piles))
    chain = cards if rules.both_ways and rules.build != BUILD_SUIT else rules.ranks
    return min(dealt + chain, cards)


def state_arrays(board: Board, rules: Rules) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The kernels' view of a position: piles (card codes from the bottom, room to grow: ``pile_room``),
    heights, and how many cards each foundation holds."""
    height = pile_room(board, rules) + 1
    if rules.decks > 1 and height > codes.PILE_ROWS:  # the positional keys have rows for so many cards a pile
        raise BoardError(
            f"a pile of {max(len(p) for p in board.piles)} cards: two-deck piles may hold at most "
            f"{codes.PILE_ROWS - rules.ranks - 1} here"
        )
    piles = np.zeros((rules.piles, height), dtype=np.int16)
    heights = np.zeros(rules.piles, dtype=np.int32)
    for p, pile in enumerate(board.piles):
        piles[p, : len(pile)] = [kernel_card(c, rules) for c in pile]
        heights[p] = len(pile)
    found = [len(rules.founded_ranks(top)) for top in board.foundations]
    return piles, heights, np.array(found, dtype=np.int32)


def down_mask(board: Board, rules: Rules) -> int:
    """The face-down cards as the kernels keep them (``meta[M_DOWN]``): a bit per card code."""
    mask = 0
    for card in board.down:
        mask |= 1 << kernel_card(card, rules)
    return mask


def engine_move(src: int, dst: int) -> Move:
    """A kernel move in the engine's spelling."""
    return _engine_move(int(src), int(dst))


def foundation_move(pile: int) -> Move:
    """A safe move in the engine's spelling: the top card of ``pile`` to its foundation."""
    return _engine_move(int(pile), codes.FOUNDATION)


@cache  # a Move is immutable, and a game has a few hundred kernel moves: each line of ~100 reuses them
def _engine_move(src: int, dst: int) -> Move:
    if src == codes.REDEAL:
        return REDEAL
    if src >= codes.SEQUENCE:
        return Move(src % codes.SEQUENCE, dst, src // codes.SEQUENCE + 1)
    src = -1 - (src - codes.WORRY) if src >= codes.WORRY else src
    return Move(src, None if dst == codes.FOUNDATION else dst)
