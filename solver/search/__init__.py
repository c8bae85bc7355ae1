"""The public solving API over the kernels: ``solve()``, its budget, schedule and result.

One room per concern:

- :mod:`.solve`: ``solve()``, which shares the budget between the drivers;
- :mod:`.warm`: ``warm_up()``, which compiles the kernels once per version, before any clock starts, and
  ``is_warm()``, whether this version's are compiled already;
- :mod:`.schedule`: the tuning, one frozen value;
- :mod:`.result`: the budget, the result and its record, progress reports;
- :mod:`.arrays`: rules and positions as the kernels read them, kernel moves as engine moves;
- :mod:`.memory`: hash tables in huge pages, doubled a stretch at a time;
- :mod:`.root`: a deal's root, made once per solve: what every driver starts from and shares;
- one driver per kernel: :mod:`.dfs`, :mod:`.beam`, :mod:`.roottest`, :mod:`.walks`, :mod:`.layered`;
- :mod:`.shorten`: the detours cut out of a winning line.
"""

from ..game.premises import UnsupportedRulesError, check_supported
from ..words import LOST, UNKNOWN, WON
from .result import Budget, Progress, SolveResult
from .schedule import Schedule
from .solve import solve
from .warm import is_warm, warm_up

__all__ = [
    "LOST", "UNKNOWN", "WON", "Budget", "Progress", "Schedule", "SolveResult", "UnsupportedRulesError",
    "check_supported", "is_warm", "solve", "warm_up",
]  # fmt: skip
