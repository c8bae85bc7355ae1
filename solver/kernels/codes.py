"""The numbers the kernels and their drivers (:mod:`solver.search`) agree on.

Rule codes (what an empty pile takes, how the tableau builds), move codes (a
kernel move is a pair of small integers: a source pile, ``WORRY + f`` for a
card coming back from foundation f, ``p + SEQUENCE * (n - 1)`` for the top n
cards of pile p moving as a unit, or ``REDEAL``; a target pile, or
``FOUNDATION``), the one status enum
that every kernel returns, and the ``meta`` slots that carry a depth-first
search between calls, and the layout of the int32 scratch array that the
kernels of one position share (:mod:`.dead`, :mod:`.moves`, :mod:`.position`).
Each kernel's own flat layouts keep their named offsets beside the kernel that
reads them.
"""

from __future__ import annotations

from numba import njit

from ..limits import MAX_PILES
from ..limits import PILE_ROWS as PILE_ROWS  # the places a pile has in the positional rows (two decks)

EMPTY_NONE, EMPTY_ANY, EMPTY_KING = 0, 1, 2  # what an empty pile takes: nothing, any card, a King
BUILD_RANK, BUILD_SUIT, BUILD_ALTERNATE = 0, 1, 2  # how the tableau builds: by rank, in suit, alternate colours
UNLIMITED = -1  # redeals left, when they never run out
SAFE_OFF, SAFE_LOW, SAFE_SUIT, SAFE_NO_HOSTS, SAFE_ALTERNATE = 0, 1, 2, 3, 4  # the safe-move rules (safe_moves.py)
SAFE_ANY = 5  # not a safe rule: every foundation move at once, for the streamlined search only (safe_moves.py)
FOUNDATION = -1  # the target of a move to the foundations, in the kernels' moves
WORRY = 100  # source WORRY + f: the top card of foundation f comes back (worrying back)
REDEAL = 200  # source of a redeal (its target is 0)
SEQUENCE = 1000  # source p + SEQUENCE * (n - 1): the top n cards of pile p move as a unit
BOTTOM = 52  # hash row BOTTOM + p: the "card beneath" the bottom card of pile p
REDEALS_ROW = BOTTOM + MAX_PILES  # hash row of the redeals left (solver/kernels/position.py, "Hash")
DOWN_ROW = REDEALS_ROW + 1  # hash row of the face-down cards
POSITIONAL_ROW = DOWN_ROW + 1  # hash row POSITIONAL_ROW + p * PILE_ROWS + i: a card at height i of pile p (two decks)
MAX_CARDS = 104  # two decks
FLIPPED = 64  # added to the card a move returns when the move turned the card it uncovered face up

# What a kernel call returns.  UNDECIDED: a capacity verdict not reached (being decided, or given up on);
# PAUSED: a slice ended with nothing decided; *_FULL: the caller must grow that array and call again.
UNDECIDED, WON, LOST, PAUSED, TABLE_FULL, STACK_FULL, SCC_FULL = range(7)

# Slots of the ``meta`` array that carry the depth-first search between calls.
M_DEPTH, M_NODES, M_TABLE_COUNT, M_AUTO_TOP, M_ROOT_AUTOS, M_PENDING, M_IN_PLAY, M_DEAD, M_LONE = range(9)
M_SCC_TOP, M_NEXT_INDEX, M_CLOSED = range(9, 12)  # the component stack's height, the next number, positions closed
M_REDEALS = 12  # redeals left at the current position (``UNLIMITED``)
M_SAFE = 13  # safe moves played, counted (for the tests)
M_DOWN = 14  # the face-down cards at the current position, a bit per card code
META_SIZE = 15

# Per pile: up to 13 run lengths, each with at most 4 hosts (rank building; 2 both ways in suit or colour;
# two decks: 8 hosts, but single cards only),
# or a single card into every empty pile (while redeals are left), or to its foundation.  Then worrying
# back (each of 8 foundations onto at most every pile) and a redeal.
MAX_MOVES_PER_NODE = MAX_PILES * (13 * 4 + MAX_PILES + 1) + 8 * MAX_PILES + 1

# Regions of the int32 scratch array: relaxed_dead's (dead.py: per pile, per rank 0..15, per suit,
# per rank, per card, per card), then generate_moves's (moves.py: per pile, per pile, per move), then a
# redeal's (position.py: per card).  Numba does not check bounds, so every region must fit what it is indexed by.
S_LEFT = 0
S_TOPS = S_LEFT + MAX_PILES
S_FOUND = S_TOPS + 16
S_HAVE = S_FOUND + 4
S_FREE = S_HAVE + 16
S_ON_TOP = S_FREE + 52
S_SRC_NEED = S_ON_TOP + 52
S_DST_NEED = S_SRC_NEED + MAX_PILES
S_TWIN = S_DST_NEED + MAX_PILES
S_SORT = S_TWIN + MAX_PILES
S_DEAL = S_SORT + MAX_MOVES_PER_NODE
S_LOWEST = S_DEAL + MAX_CARDS  # 4: the score's lowest rank of each suit in a pile (score.score)
SCRATCH_SIZE = S_LOWEST + 4


@njit(cache=True, inline="always")
def is_red(card):
    suit = card % 4
    return suit == 1 or suit == 2


@njit(cache=True, inline="always")
def builds_on(host, card, build, both_ways):
    """Whether ``card`` may be put on ``host`` (card codes): one rank lower (or higher, both ways), in
    any suit, the same suit, or the other colour.  The compiled twin of ``Rules.can_host``."""
    step = host // 4 - card // 4
    if not (step == 1 or (both_ways and step == -1)):
        return False
    if build == BUILD_SUIT:
        return host % 4 == card % 4
    if build == BUILD_ALTERNATE:
        return is_red(host) != is_red(card)
    return True


@njit(cache=True, inline="always")
def max_run(rules, spaces, into_space):
    """The most cards one move may take with ``spaces`` empty piles: the compiled twin of ``Rules.max_run``."""
    if not rules.sequences or (into_space and not rules.runs_into_spaces):
        return 1
    if rules.runs_by_spaces:
        return 1 << max(spaces - (1 if into_space else 0), 0)
    return 64


@njit(cache=True, inline="always")
def space_takes(rank, nranks, empty_rule):
    """Whether an empty pile may take a card of this rank."""
    return empty_rule == EMPTY_ANY or (empty_rule == EMPTY_KING and rank == nranks)


@njit(cache=True, inline="always")
def copy_into(dst, src):
    """dst[:] = src for 1-D arrays, without the view a slice makes (its reference counts cost) or the shape
    check an array assignment brings (numba takes a second to compile it)."""
    for i in range(src.shape[0]):
        dst[i] = src[i]
