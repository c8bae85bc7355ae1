"""The public solving API over the kernels: ``solve()``, its budget, schedule and result.

One room per concern:

- :mod:`.solve`: ``solve()``: a plan, a root, the scheduler, then the winning line shortened and replayed;
- :mod:`.plan`: the plan, made once: which searches apply to these rules and this budget, and their memory;
- :mod:`.scheduler`: the restart loop that hands the plan's searches their slices, and the memory they hold;
- :mod:`.protocol`: the one interface every search implements;
- :mod:`.root`: a deal's root, made once per solve: what every search starts from and shares;
- one driver per kernel, each a search of the protocol: :mod:`.dfs` (the depth-first search),
  :mod:`.streamline` (the depth-first search that forgets suits), :mod:`.beam`, :mod:`.capacity` (the
  root's capacity test to its end), :mod:`.suitblind` (the suit-blind walks), :mod:`.layered`;
- :mod:`.strict`: under PySolFC's rules, the game's strict rules searched first;
- :mod:`.checkpoint`: a long search written to a file, and read back;
- :mod:`.shorten`: the detours cut out of a winning line;
- :mod:`.warm`: ``warm_up()``, which compiles the kernels once per version, before any clock starts, and
  ``is_warm()``, whether this version's are compiled already;
- :mod:`.schedule`: the tuning, one frozen value;
- :mod:`.result`: the budget, the result and its record, progress reports;
- :mod:`.arrays`: rules and positions as the kernels read them, kernel moves as engine moves;
- :mod:`.memory`: hash tables in huge pages, doubled a stretch at a time.
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
