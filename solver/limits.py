"""The sizes that the game model and the kernels both read.

It imports nothing, so that the kernels' compiled cache (solver/kernels/cache.py)
can be keyed by this file rather than by the games' rules: a change to a game
leaves the compiled kernels alone, a change here recompiles them all.
"""

MAX_PILES = 32  # the most piles a game may have: the kernels' scratch layouts are sized for it
PILE_ROWS = 64  # two decks: the kernels key a card by its place, with this many places a pile
