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


def state_arrays(board: Board, rules: Rules) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The kernels' view of a position: piles (card codes from the bottom, room to grow), heights, and how
    many cards each foundation holds."""
    height = max(len(p) for p in board.piles) + rules.ranks + 1
    if rules.decks > 1 and height > codes.PILE_ROWS:  # the positional keys have rows for so many cards a pile
        raise BoardError(
            f"a pile of {height - rules.ranks - 1} cards: two-deck piles may hold at most "
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
