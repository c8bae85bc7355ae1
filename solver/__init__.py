"""Exhaustive solver for the Baker's Dozen family of solitaire games.

The flow, one way: rules and deals (:mod:`solver.game`, plain Python) ->
state arrays -> the numba kernels (:mod:`solver.kernels`, private) driven by
:func:`solve` (:mod:`solver.search`) -> verdict and moves, which the
reference engine (:mod:`solver.game.engine`) replays -> records
(:mod:`solver.batch`, :mod:`solver.records`); the command line (:mod:`solver.cli`) reads its
options into one request per command (:mod:`solver.requests`) and prints through :mod:`solver.report`.

The names from :mod:`solver.search` load on first use: numba takes a good
part of a second to import, which ``bakers --help`` need not wait for.
"""

from .game.board import Board, BoardError, parse_board
from .game.deals import deal, pysolfc_layout
from .game.engine import Move, is_solution, reference_search
from .game.rules import GAMES, Rules, get_rules, with_pysolfc

_FROM_SEARCH = ("LOST", "UNKNOWN", "WON", "Budget", "Schedule", "SolveResult", "solve", "warm_up")

__all__ = [
    "GAMES", "LOST", "UNKNOWN", "WON", "Board", "BoardError", "Budget", "Move", "Rules", "Schedule",
    "SolveResult", "deal", "get_rules", "is_solution", "parse_board", "pysolfc_layout", "reference_search",
    "solve", "warm_up", "with_pysolfc",
]  # fmt: skip


def __getattr__(name: str):
    if name in _FROM_SEARCH:
        from . import search

        value = getattr(search, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
