"""Exhaustive solver for the Baker's Dozen family of solitaire games.

The flow, one way: rules and deals (:mod:`solver.game`, plain Python) ->
state arrays -> the numba kernels (:mod:`solver.kernels`, private) driven by
:func:`solve` (:mod:`solver.search`) -> verdict and moves, which the
reference engine (:mod:`solver.game.engine`) replays -> records
(:mod:`solver.batch`, :mod:`solver.cli`).
"""

from .game.board import Board, BoardError, parse_board
from .game.deals import deal, pysolfc_layout
from .game.engine import Move, is_solution, reference_search
from .game.rules import GAMES, Rules, get_rules
from .search import LOST, UNKNOWN, WON, Budget, Schedule, SolveResult, solve, warm_up

__all__ = [
    "GAMES", "LOST", "UNKNOWN", "WON", "Board", "BoardError", "Budget", "Move", "Rules", "Schedule",
    "SolveResult", "deal", "get_rules", "is_solution", "parse_board", "pysolfc_layout", "reference_search",
    "solve", "warm_up",
]  # fmt: skip
