"""Exhaustive solver for the Baker's Dozen family of solitaire games.

The flow: rules (:mod:`solver.rules`) -> deal (:mod:`solver.deals`) or board
text (:mod:`solver.board`) -> :func:`solve` (:mod:`solver.search`, over the
private kernels in :mod:`solver._kernels`) -> verdict and moves, which the
reference engine (:mod:`solver.engine`) replays.
"""

from ._cache import use_versioned_cache

use_versioned_cache()  # before any kernel module is imported (see solver/_cache.py)

from .board import Board, BoardError, parse_board  # noqa: E402
from .deals import deal, pysolfc_layout  # noqa: E402
from .engine import Move, is_solution, reference_search  # noqa: E402
from .rules import GAMES, Rules, get_rules  # noqa: E402
from .search import LOST, UNKNOWN, WON, Budget, SolveResult, solve  # noqa: E402

__all__ = [
    "GAMES", "LOST", "UNKNOWN", "WON", "Board", "BoardError", "Budget", "Move", "Rules", "SolveResult",
    "deal", "get_rules", "is_solution", "parse_board", "pysolfc_layout", "reference_search", "solve",
]  # fmt: skip
