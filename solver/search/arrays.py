"""The kernels' view of a game: rules as codes, a position as arrays, a kernel move as an engine move.

Data flows one way: a :class:`~solver.game.board.Board` and its
:class:`~solver.game.rules.Rules` become these arrays and codes here, once;
the kernels (:mod:`solver.kernels`) read nothing else; their moves come back
through :func:`engine_move`.
"""

from __future__ import annotations

from functools import cache

import numpy as np

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


def safe_rule(rules: Rules) -> int:
    """Which safe-move rule of solver/kernels/position.py ("Safe foundation moves") covers ``rules``."""
    if rules.worrying_back:
        return codes.SAFE_OFF
    if rules.build == BUILD_SUIT and not (rules.both_ways and rules.sequence_moves):
        return codes.SAFE_SUIT
    if rules.build == BUILD_ALTERNATE and not rules.both_ways:
        return codes.SAFE_ALTERNATE
    if rules.sequence_moves:
        return codes.SAFE_OFF
    if not rules.both_ways:
        return codes.SAFE_LOW
    return codes.SAFE_NO_HOSTS if rules.build == BUILD_ALTERNATE else codes.SAFE_OFF


def is_classic(rules: Rules) -> bool:
    """Build down by rank, one card at a time, no redeal: the premises of the capacity test, the suit-blind
    walks (solver/kernels/capacity.py, suitblind.py), which stay off elsewhere."""
    return (
        rules.build == BUILD_RANK
        and not rules.both_ways
        and not rules.sequence_moves
        and not rules.redeals
        and rules.decks == 1  # their proofs and keys are written for one deck
    )


def runs_beams(rules: Rules) -> bool:
    """Where beams run (solver/kernels/beam.py): one deck, since a beam's positions hold four foundations,
    and every card face up, since it does not track face-down ones.  A beam proves nothing lost and its
    lines are replayed, so it needs no proof: any building rule, runs and redeals are welcome."""
    return rules.decks == 1 and not rules.face_down_rows


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
        safe_rule(rules),
        not rules.worrying_back and not rules.sequence_moves,  # the lone-card rule (position.py)
        not (rules.sequence_moves and rules.both_ways),  # the relaxed dead test (position.py)
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
