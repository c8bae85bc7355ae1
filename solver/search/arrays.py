"""The kernels' view of a game: rules as codes, a position as arrays, a kernel move as an engine move.

Data flows one way: a :class:`~solver.game.board.Board` and its
:class:`~solver.game.rules.Rules` become these arrays and codes here, once;
the kernels (:mod:`solver.kernels`) read nothing else; their moves come back
through :func:`engine_move`.
"""

from __future__ import annotations

import numpy as np

from ..game.board import Board
from ..game.engine import Move
from ..game.rules import EMPTY_ANY, EMPTY_KING, EMPTY_NONE, Rules
from ..kernels import codes
from ..kernels.bundles import KernelRules
from ..kernels.capacity import capacity_keys
from ..kernels.position import zobrist_keys
from ..kernels.suitblind import chain_keys

ZOBRIST = zobrist_keys()  # the depth-first search's and the beam's position keys
CAPACITY_KEYS = capacity_keys()  # the capacity relaxation's abstract position keys
WALK_KEYS = chain_keys()  # the suit-blind walks' position keys

_EMPTY_CODES = {EMPTY_NONE: codes.EMPTY_NONE, EMPTY_ANY: codes.EMPTY_ANY, EMPTY_KING: codes.EMPTY_KING}


def kernel_rules(rules: Rules) -> KernelRules:
    return KernelRules(rules.ranks, _EMPTY_CODES[rules.empty_pile], bool(rules.worrying_back))


def state_arrays(board: Board, rules: Rules) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The kernels' view of a position: piles (card codes from the bottom, room to grow), heights, foundations."""
    height = max(len(p) for p in board.piles) + rules.ranks + 1
    piles = np.zeros((rules.piles, height), dtype=np.int16)
    heights = np.zeros(rules.piles, dtype=np.int32)
    for p, pile in enumerate(board.piles):
        piles[p, : len(pile)] = pile
        heights[p] = len(pile)
    return piles, heights, np.array(board.foundations, dtype=np.int32)


def engine_move(src: int, dst: int) -> Move:
    """A kernel move in the engine's spelling."""
    src, dst = int(src), int(dst)
    src = -1 - (src - codes.WORRY) if src >= codes.WORRY else src
    return Move(src, None if dst == codes.FOUNDATION else dst)
