"""The kernels' view of a game: rules as codes, a position as arrays, a kernel move as an engine move.

Data flows one way: a :class:`~solver.game.board.Board` and its
:class:`~solver.game.rules.Rules` become these arrays and codes here, once;
the kernels (:mod:`solver.kernels`) read nothing else; their moves come back
through :func:`engine_move`.

Foundations by alternate colour (PySolFC's Spanish Patience)
    Foundation i starts with the Ace of suit i and then takes a card one rank
    higher of the other colour, of either suit; its top card may come back or
    pass to another foundation that takes it; the tableau builds down by rank
    in any suit.  So the card of rank r on foundation i has a colour fixed by
    i and r: red where i is red and r odd, or i black and r even.  Call the
    two red-based foundations (D, H) one pair and the black-based ones (C, S)
    the other: a card of rank r belongs to one pair (``alternate_pair``), and
    each pair has exactly two cards of each rank, both of one colour.
    The quotient of a position forgets which of those two cards is which and
    which foundation of a pair is which: each pile as a list of (pair, rank),
    and per pair the two foundations' heights as a set.  Its moves match the
    game's, both ways.  A move between piles reads ranks only.  A card goes
    up onto a foundation of its pair one rank lower, whose top card is then
    of the other colour, as the game asks; an Ace onto an empty one of its
    pair, and its own suit's foundation is empty, since an Ace lies at the
    bottom of its foundation and this one is in a pile.  A card comes back
    from a foundation of its pair of the height meant, of the rank meant,
    onto a pile whose top is one rank higher.  A card passing between two
    foundations (never an Ace) goes from one of height h to one of its pair
    of height h - 1, which swaps their heights: the quotient stays as it
    was, so the kernels never play it.  And a position is won when its
    piles are empty, which the quotient says.  So the game from a position
    is won exactly when its quotient game is -- and that is the kernels'
    two-deck game (solver/kernels/position.py) with suits 0 and 1 only: the
    two cards of a (pair, rank) are two copies of one card, a pair's two
    foundations a suit's two.  A line of the kernels' moves names piles, and
    foundations by pair: ``engine_line`` turns it into the game's own moves,
    choosing where two foundations of a pair fit, and the engine replays it
    as any other.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from ..game import premises
from ..game.board import Board, BoardError
from ..game.cards import is_red, make_card, rank_of
from ..game.engine import REDEAL, Move, apply_move, foundations_taking
from ..game.rules import BUILD_ALTERNATE, BUILD_RANK, BUILD_SUIT, EMPTY_ANY, EMPTY_KING, EMPTY_NONE, Rules, two_copies
from ..kernels import codes
from ..kernels.bundles import KernelRules
from ..kernels.capacity import capacity_keys
from ..kernels.position import streamlined_keys, zobrist_keys
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
        premises.first_pile_trap_applies(rules),
    )


def position_keys(rules: Rules) -> np.ndarray:
    """The hash keys the kernels use for ``rules`` (solver/kernels/position.py, "Hash")."""
    if two_copies(rules):
        return POSITIONAL_ZOBRIST
    return ORDERED_ZOBRIST if rules.redeals else ZOBRIST


@cache
def _streamlined(build: int) -> np.ndarray:
    return streamlined_keys(POSITIONAL_ZOBRIST, build)


def streamline_keys(rules: Rules) -> np.ndarray | None:
    """The keys of the streamlined search (solver/kernels/position.py, ``streamlined_keys``), or None
    where the tableau builds by suit (they would forget nothing) or the foundations by alternate colour
    (the kernels' cards then name a pair of foundations, not a suit: ``kernel_card``)."""
    if rules.build == BUILD_SUIT or rules.foundations_alternate:
        return None
    return _streamlined(_BUILD_CODES[rules.build])


def alternate_pair(card: int) -> int:
    """Which pair of foundations by alternate colour takes ``card``: 1 the red-based ones (D, H), 0 the
    black-based ones (C, S) (module text)."""
    return int(is_red(card) != (rank_of(card) % 2 == 0))


def _pair_foundations(pair: int) -> list[int]:
    """The two foundations (by the suit of their Ace) that take the cards of ``pair``."""
    return [suit for suit in range(4) if alternate_pair(make_card(1, suit)) == pair]


def kernel_card(card: int, rules: Rules) -> int:
    """A card as the kernels see it: ranks turned over where foundations build down (position.py); by
    alternate colour, its rank in the suit of its pair (module text)."""
    if rules.foundations_alternate:
        return (rank_of(card) - 1) * 4 + alternate_pair(card)
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
    if two_copies(rules) and height > codes.PILE_ROWS:  # the positional keys have rows for so many cards a pile
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
    if rules.foundations_alternate:  # per pair, its two foundations' heights, the higher first (module text)
        pairs = [sorted((found[suit] for suit in _pair_foundations(pair)), reverse=True) for pair in (0, 1)]
        high, low = zip(*pairs, strict=True)
        found = [*high, 0, 0, *low, 0, 0]
    return piles, heights, np.array(found, dtype=np.int32)


def down_mask(board: Board, rules: Rules) -> int:
    """The face-down cards as the kernels keep them (``meta[M_DOWN]``): a bit per card code."""
    mask = 0
    for card in board.down:
        mask |= 1 << kernel_card(card, rules)
    return mask


def engine_line(board: Board, moves: list[Move], rules: Rules) -> list[Move]:
    """The kernels' winning line as the game's own moves: by alternate colour, each move to a foundation
    names the one it goes onto, and a card back from a foundation comes from the game's foundation of the
    pair and height the kernels meant (module text); the line as it is elsewhere."""
    if not rules.foundations_alternate:
        return moves
    line = []
    for move in moves:
        if move.target is None and not move.is_redeal:
            card = board.piles[move.source][-1]
            move = Move(move.source, None, 1, foundations_taking(board, card, rules)[0])
        elif move.source < 0:
            virtual = -1 - move.source  # the kernels' foundation: the pair's higher one (< 4) or its lower one
            mine = _pair_foundations(virtual % 4)
            heights = sorted(board.foundations[s] for s in mine)
            height = heights[1] if virtual < 4 else heights[0]
            move = Move(-1 - next(s for s in mine if board.foundations[s] == height), move.target)
        line.append(move)
        board = apply_move(board, move, rules)
    return line


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
