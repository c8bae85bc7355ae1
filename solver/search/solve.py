"""``solve()``: a board and its rules in, a verdict and a move list out.

Data flows one way: the rules and the board become a :class:`~.plan.Plan` (which searches, how much
memory each) and a :class:`~.root.Root` (the deal's arrays after its safe moves, shared by every
search); a trap at the root may decide at once (:mod:`solver.kernels.trap`); else the
:class:`~.scheduler.Scheduler` hands the plan's searches their slices until one decides; a winning line
is then shortened (:mod:`.shorten`) and replayed by the reference engine before it is reported.
"""

from __future__ import annotations

from collections.abc import Callable

from ..game.board import Board
from ..game.engine import Move, is_solution
from ..game.premises import check_supported
from ..game.rules import Rules
from ..kernels.cache import is_warm
from ..words import LOST, UNKNOWN, WON
from .arrays import engine_line
from .checkpoint import Checkpoint, Keeper, identity
from .plan import LAYERED, ONE_RUN, SCHEDULED, Plan
from .result import Budget, Progress, SolveResult
from .root import Root
from .schedule import Schedule
from .scheduler import Clock, Scheduler
from .shorten import shorten
from .warm import load_search_kernels, warm_up


def solve(
    board: Board,
    rules: Rules,
    budget: Budget | None = None,
    *,
    schedule: Schedule | None = None,
    shorten_moves: bool = True,
    one_run: bool = False,
    layered: bool = False,
    report: Callable[[Progress], None] | None = None,
    report_every: float = 10.0,
    checkpoint: Checkpoint | None = None,
) -> SolveResult:
    """Decide whether ``board`` can be won under ``rules``: ``won`` with a move list that the reference
    engine has replayed to a full foundation; ``lost`` when every reachable position was searched, a
    relaxed game of the deal cannot be won, or cards lie trapped for good in the first piles; ``unknown``
    when a budget ran out first (``reason`` says which).  ``found_by`` names the search that decided.

    ``one_run``: the root's capacity test, then one depth-first run to the end with all the memory;
    ``layered``: the root's capacity test, then the layered search (a ``ValueError`` where its premises do
    not hold).  The default schedule and both modes are described in :mod:`.scheduler`.
    ``checkpoint`` (one run or layered only): the search's state is written there every
    ``checkpoint.every`` seconds, when it stops undecided and when ``checkpoint.stop_requested()`` says so
    (then :class:`~.checkpoint.SearchStopped` is raised); given the file of the same search, a solve goes
    on from it to the same verdict after the same positions (:mod:`.checkpoint`).
    ``schedule``: the tuning; it changes how fast a verdict comes, never which.
    ``report``: called with a :class:`Progress` every ``report_every`` seconds between slices.

    Compiling never counts against a budget: the first solve of a process compiles or loads the kernels
    before its clock starts (:func:`warm_up`)."""
    check_supported(rules)
    budget, schedule = budget or Budget(), schedule or Schedule()
    board = board.validate(rules)
    mode = LAYERED if layered else ONE_RUN if one_run else SCHEDULED
    plan = Plan.make(rules, board, budget, schedule, mode, checkpointed=checkpoint is not None)
    _ensure_compiled()
    clock = Clock(budget, report, report_every)
    result = SolveResult(UNKNOWN)
    root = Root(board, rules, schedule, plan.premises)
    trap = root.trap()
    if trap is not None:
        result.verdict, (result.found_by, result.trapped) = LOST, trap
        result.seconds = clock.elapsed()
        return result
    made_from = {} if checkpoint is None else identity(rules.digest(), board.to_text(rules), budget, schedule, mode)
    keeper = Keeper(checkpoint, made_from)
    scheduler = Scheduler(root, plan, budget, result, clock, keeper)
    outcome, line = scheduler.decide()
    if outcome == WON:
        _take_line(result, board, rules, line, clock.deadline, shorten_moves)
    elif outcome == LOST:
        result.verdict = LOST
    else:
        result.reason = scheduler.reason
    result.seconds = keeper.seconds + clock.elapsed()
    return result


def _take_line(
    result: SolveResult, board: Board, rules: Rules, line: list[Move], deadline: float | None, shortened: bool
) -> None:
    """The finish of a win: the search's line as the game's moves, shortened, replayed by the reference
    engine, and into ``result``."""
    result.raw_length = len(line)
    moves = engine_line(board, line, rules)
    if shortened:
        moves = shorten(board, moves, rules, deadline)
    if not is_solution(board, moves, rules):
        raise AssertionError("the solver's winning line does not replay: this is a bug, please report it")
    result.verdict, result.moves = WON, moves


_compiled = False  # whether this version's kernels are known to be compiled: warm_up() ran, or the cache has them


def _ensure_compiled() -> None:
    """Compile every kernel unless this version's cache has them; from a warm cache, load the depth-first
    search's, which every solve runs (the first kernel numba loads in a process costs about 0.1 s of its
    own setup, which would otherwise count in the first solve's time and budget); asked once per process,
    not at every solve."""
    global _compiled
    if _compiled:
        return
    _compiled = True  # first: warm_up() solves small deals itself
    try:
        if is_warm():
            load_search_kernels()
        else:
            warm_up()
    except BaseException:  # stopped while compiling: the next solve compiles again
        _compiled = False
        raise
