"""``solve()``: a board and its rules in, a verdict and a move list out.

It shares one budget between the drivers of :mod:`solver.search`:
restarted depth-first runs (:mod:`.dfs`), beams (:mod:`.beam`), the root's
capacity test (:mod:`.roottest`) and the walks (:mod:`.walks`), as the
:class:`~.schedule.Schedule` says; each winning line is shortened
(:mod:`.shorten`) and replayed by the reference engine before it is
reported.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import numpy as np

from ..game.board import Board
from ..game.engine import Move, is_solution
from ..game.premises import LAYERS_PREMISES, beams_apply, check_supported, relaxations_apply
from ..game.rules import Rules
from ..kernels import capacity, codes
from ..kernels.cache import is_warm
from ..kernels.codes import LOST as K_LOST
from ..kernels.codes import PAUSED as K_PAUSED
from ..kernels.codes import WON as K_WON
from ..kernels.position import seed_random
from ..words import (
    BEAM,
    CAPACITY,
    DEPTH_FIRST,
    LAYERS,
    LOST,
    REASON_MEMORY,
    REASON_TIME,
    STREAMLINED,
    SUIT_BLIND,
    UNKNOWN,
    WALK,
    WON,
)
from .arrays import engine_line, streamline_keys
from .beam import beam_bytes, beam_search
from .checkpoint import Checkpoint, SearchStopped
from .checkpoint import identity as checkpoint_identity
from .dfs import DepthFirst
from .layered import Layered, can_search
from .result import Budget, Progress, SolveResult
from .root import Root
from .roottest import RootTest
from .schedule import Schedule
from .shorten import shorten
from .streamline import Streamlined
from .walks import Walks
from .warm import load_search_kernels, warm_up


class _Beside:
    """The searches beside the depth-first runs: the root's capacity test, then the walks; each takes
    a share of the time since they began, and they hold ``memory`` between them."""

    def __init__(self, root: Root, memory: int):
        self.schedule = root.schedule
        self.walks = Walks(root, memory)
        self.root_test = RootTest(root, memory - self.walks.bytes())  # done before the walks need more
        self.root_test_turn = False  # whether the last turn was the root test's

    def bytes(self) -> int:
        """What they hold; after the root test's turn, its table at its largest (it lets it go when it ends)."""
        root_test = self.root_test.peak if self.root_test_turn else self.root_test.bytes()
        return self.walks.bytes() + root_test

    def take_turn(self, deadline: float | None) -> None:
        """Run for the time owed: a share of the time since they began, this turn included.  The root's
        capacity test takes it first, until it ends (most deals' within milliseconds, Baker's Dozen
        417's after 16 s), with a larger share, then the walks."""
        walks, root_test = self.walks, self.root_test
        now = time.perf_counter()
        share = self.schedule.root_test_share if root_test.open() else self.schedule.walks_share
        owed = (share * (now - walks.began) - walks.seconds - root_test.seconds) / (1 - share)
        if deadline is not None:
            owed = min(owed, deadline - now)
        if owed <= 0:
            return
        if root_test.open():
            root_test.advance(owed)
        elif walks.open():
            walks.advance(owed)

    def turn(
        self, deadline: float | None, result: SolveResult, held: Callable[[], int]
    ) -> tuple[int | None, list[Move]]:
        """Take a turn and note it in ``result`` (``held``: what the whole solve holds); the kernel status
        (WON, LOST) and winning line if it decided the deal, else None."""
        walks, root_test = self.walks, self.root_test
        self.root_test_turn = root_test.open()  # then the walks do not grow this turn
        self.take_turn(deadline)
        result.hold(held())  # the root test's table at its largest, on its turns
        self.root_test_turn = False
        result.root_test_positions = root_test.positions()
        if root_test.lost():
            result.found_by = CAPACITY
            return K_LOST, []
        result.walk_positions = walks.positions()
        result.walk_named_low, result.walk_named_high = walks.named()
        if walks.lost():
            result.found_by = SUIT_BLIND
            return K_LOST, []
        if walks.won():
            result.found_by = WALK
            return K_WON, walks.winning_line()
        return None, []


def _root_test(root: Root, budget: Budget, deadline: float | None, result: SolveResult) -> RootTest | None:
    """``one_run``'s first step: the root's capacity test to the end, or to the deadline, with the whole
    memory (it lets it go before the depth-first run begins); None where the safe moves alone win."""
    if root.won:
        return None
    test = RootTest(root, budget.memory - root.bytes())
    test.advance(math.inf if deadline is None else deadline - time.perf_counter())
    result.root_test_positions = test.positions()
    result.hold(root.bytes() + test.peak)
    return test


def _run_beam(
    root: Root, result: SolveResult, budget: Budget, deadline: float | None, held: int, dfs_table: np.ndarray
) -> list[Move] | None:
    """The next beam of the schedule, as wide as the memory left allows (``held``: bytes the solve holds
    now); its winning line or None.  ``dfs_table``: the depth-first runs' table, whose lost marks it skips."""
    schedule = root.schedule

    def bytes_needed(width: int) -> int:
        return beam_bytes(root.arrays.board, root.board.cards_in_play(), width, schedule, root.arrays.found.size)

    width = schedule.beam_width(result.beams)
    room = budget.memory - held
    while width > schedule.beam_first_width and bytes_needed(width) > room:
        width //= 2
    result.beams += 1
    if bytes_needed(width) > room:
        return None
    result.hold(held + bytes_needed(width))
    path, _ = beam_search(root, width, deadline, dfs_table)
    return path


def _layered(
    root: Root,
    budget: Budget,
    deadline: float | None,
    result: SolveResult,
    report: Callable[[Progress], None] | None,
    began: float,
    report_every: float,
    keep: Callable[..., None],
    folder: Path | None,
    saved: dict[str, np.ndarray] | None,
) -> tuple[int, str, list[Move]]:
    """``solve(layered=True)``'s search: its status, the reason of an unknown, and its winning line.
    ``keep``: called between slices (for checkpoints); ``folder``, ``saved``: as ``Layered.search`` takes."""
    search = Layered(root, budget)
    next_report = began + report_every

    def tick(current: Layered) -> None:
        nonlocal next_report
        now = time.perf_counter()
        if report is not None and now >= next_report:
            next_report = now + report_every
            report(Progress(now - began, current.positions(), 0, current.bytes(), 1))
        keep(current)

    status, reason = search.search(deadline, tick, folder, saved)
    if status not in (K_WON, K_LOST):
        keep(search, undecided=True)
    result.states, result.dead_ends = search.positions(), search.dead
    result.hold(search.peak)
    result.found_by = LAYERS if status in (K_WON, K_LOST) else ""
    return status, reason, search.line


def _streamline(
    streamlined: Streamlined, schedule: Schedule, searched: int, budget: Budget, deadline: float | None
) -> bool:
    """Give the streamlined search the slices due after ``searched`` depth-first positions, within the
    budget's positions, which its own count against; whether it won."""
    while streamlined.open():
        due = schedule.streamline_due(streamlined.stage)
        if due is None:
            streamlined.close()  # its memory goes back
        if due is None or searched < due[0]:
            break
        streamlined.stage += 1
        up_to = due[1] if budget.states is None else min(due[1], budget.states - searched)
        streamlined.advance(deadline, up_to)
    return streamlined.won()


def _count_run(result: SolveResult, run: DepthFirst) -> None:
    """Add a finished depth-first run's counters to the result's."""
    result.states += run.positions()
    result.dead_ends += int(run.meta[codes.M_DEAD])
    result.lone_prunes += int(run.meta[codes.M_LONE])
    result.safe_moves += int(run.meta[codes.M_SAFE])
    result.capacity_dead_ends = int(run.root.cmeta[capacity.C_DEAD])  # counted across runs
    result.evictions = run.evictions


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
    """Decide whether ``board`` can be won under ``rules``.

    A ``won`` result carries a move list that the reference engine has
    replayed to a full foundation; ``lost`` means the whole reachable space
    was searched, or a relaxed game of the deal cannot be won, or a card lies
    trapped for good in the first pile (:mod:`solver.kernels.trap`, at the deal
    and at every position searched) or among the first few piles (the same module, at the deal); ``unknown``
    means a budget ran out first (``reason`` says which).  ``found_by``
    says which search decided.

    The search restarts in a perturbed move order each time a run uses up
    its position budget (``Schedule.run_cap``), because a depth-first search
    that goes wrong early can spend a long time below that move while
    another order finds a win at once.  Each run is a complete search that
    skips only positions proved lost, so the first one that finishes gives
    the verdict: restarts change how fast a verdict comes, never which.

    Between the runs, from the first, the streamlined search (:mod:`.streamline`) takes slices of about
    twice the runs' positions (``Schedule.streamline_due``): one depth-first run that takes positions
    differing only in suits the building rule does not read for one, and plays every foundation move at
    once.  It is incomplete, so it finds wins only, each replayed like any other; when it ends without
    one, nothing follows from that.

    Once a deal has resisted a while, beam searches of growing width run
    between the runs (``Schedule.beam_due``).  A beam finds wins only, each
    replayed like any other, so it too changes how fast a verdict comes,
    never which.  From then on too, first, the capacity test of the root
    (:mod:`solver.kernels.capacity`) is searched to the end in slices that
    take two thirds of the time until it ends: when its abstract game cannot
    be won, neither can the deal.  Then the game is walked with the suits of
    moved cards forgotten (:mod:`solver.kernels.suitblind`), in slices that
    take half the time until it ends: when that game cannot be won, neither
    can the deal.  When it can, the walk goes on with the suits of the five
    lowest ranks kept, then of the five highest, then with every suit kept
    -- the real game, whose win is a winning line, replayed like any other.
    They hold their own share of the memory, ``Schedule.walks_memory``.

    ``one_run``: a single depth-first run to the end, with no restarts,
    beams or walks, and the whole memory for its table, after the root's
    capacity test to the end (Baker's Dozen 417: lost in 16 s, where the
    depth-first search had not ended after 573M positions).  It finds wins
    later, but loses no time to restarts or to walks that would need more
    memory than their share: given hours and many GiB, it settles deals
    that the default leaves unknown (Good Measure 560: lost after 351M
    positions, 31 min, 8 GiB used).

    ``layered``: the root's capacity test to the end as with ``one_run``, then the layered search
    (:mod:`solver.kernels.layers`) with the whole budget: breadth-first by progress, it holds one layer
    of positions at a time, each stored whole, where the depth-first search holds every position it has
    met by its hash keys.  Measured, it searches the same positions about three times slower in about
    the same memory, and finds wins last: it checks losses exactly (results/layered.md).  Only where its
    premises hold (``solver.game.premises.layers_apply``: one deck, single cards building down, spaces that
    take nothing, no worrying back, no redeal left, piles of at most 15 cards); a ``ValueError`` elsewhere,
    before any search.

    ``checkpoint``: with ``one_run`` or ``layered`` only, the search's whole state is written to
    ``checkpoint.path`` every ``checkpoint.every`` seconds, when it stops undecided, and when
    ``checkpoint.stop_requested()`` says so (then :class:`~.checkpoint.SearchStopped` is raised); a solve
    given a file that holds a checkpoint of the same search goes on from it, to the same verdict after the
    same positions as one never stopped (:mod:`.checkpoint`).  ``seconds`` then counts every process's
    time; the budget's seconds, this one's.  The layered search keeps its finished layers' parent words
    in the folder ``checkpoint.path`` + ``.layers`` beside it.

    ``schedule``: the tuning (:class:`~solver.search.schedule.Schedule`);
    it changes how fast a verdict comes, never which.

    ``report``: called with a :class:`Progress` every ``report_every``
    seconds of depth-first search (not inside a beam, which may run for
    minutes at the largest widths).

    Where this version's kernels are not compiled yet, the first solve of a
    process compiles them all first, by :func:`warm_up`, before its clock
    starts: compiling never counts against a budget, so a fresh install
    answers as a warm one does.  From a warm cache it loads the depth-first
    search's kernels before its clock starts (numba's setup on the first load
    takes about 0.1 s); the beams' and walks' load on first use, in the time
    of the solve that uses them.
    """
    check_supported(rules)
    budget = budget or Budget()
    schedule = schedule or Schedule()
    board = board.validate(rules)
    if layered and not can_search(rules, board):
        raise ValueError(f"{rules.title}: {LAYERS_PREMISES}")
    if checkpoint is not None and not (one_run or layered):
        raise ValueError(
            "a checkpoint needs one_run or layered: the default schedule's restarts, beams and walks keep state "
            "that a checkpoint does not hold"
        )
    _ensure_compiled()
    began = time.perf_counter()
    deadline = None if budget.seconds is None else began + budget.seconds
    result = SolveResult(UNKNOWN)
    root = Root(board, rules, schedule)
    trap = root.trap()
    if trap is not None:
        result.verdict, (result.found_by, result.trapped) = LOST, trap
        result.seconds = time.perf_counter() - began
        return result
    walk = relaxations_apply(rules)  # the root's capacity test and the walks
    beside_memory = int(budget.memory * schedule.walks_memory) if walk and not one_run else 0
    streamlines = bool(schedule.streamline_slices) and streamline_keys(rules) is not None and not (one_run or layered)
    streamline_memory = int(budget.memory * schedule.streamline_memory) if streamlines else 0
    search_budget = replace(budget, memory=budget.memory - beside_memory - streamline_memory)
    streamlined: Streamlined | None = None
    run: DepthFirst | None = None
    beside: _Beside | None = None
    path = None
    next_report = began + report_every
    saved_counters, saved_arrays = {}, None
    if checkpoint is not None:
        search_name = "layered" if layered else "one-run"
        made_from = checkpoint_identity(rules.digest(), board.to_text(rules), budget, schedule, search_name)
        loaded = checkpoint.load(made_from)
        if loaded is not None:
            saved_counters, saved_arrays = loaded
            checkpoint.resumed_from = saved_counters["positions"]
            result.root_test_positions = saved_counters["root_test_positions"]
            result.hold(saved_counters["memory"])
        del loaded  # else its arrays, the table's size, would outlive their restoring

    def keep(current: DepthFirst | Layered, undecided: bool = False) -> None:
        """Between slices: write a checkpoint if one is due, asked for (then stop) or the search ends undecided."""
        if checkpoint is None:
            return
        stop = checkpoint.stop_requested() and not undecided
        if stop or undecided or checkpoint.due():
            counters = {
                "status": int(current.status) if isinstance(current, DepthFirst) else K_PAUSED,
                "positions": current.positions(),
                "root_test_done": root_test_done,
                "root_test_positions": result.root_test_positions,
                "seconds": saved_counters.get("seconds", 0.0) + time.perf_counter() - began,
                "memory": max(result.memory, held(), current.bytes() if isinstance(current, Layered) else 0),
            }
            checkpoint.save(made_from, counters, current.state())
        if stop:
            raise SearchStopped(checkpoint.path, current.positions())

    def held() -> int:
        """Everything the solve holds now, summed here only: the root's capacity cache, the depth-first run,
        the searches beside it and the streamlined search."""
        searches = (run.bytes() if run else 0) + (beside.bytes() if beside else 0)
        return root.bytes() + searches + (streamlined.bytes() if streamlined else 0)

    def streamlined_positions() -> int:
        return streamlined.positions() if streamlined else 0

    def tick(current: DepthFirst, counted: bool = False) -> None:
        """Report if one is due; ``counted``: ``current``'s positions are in ``result.states`` already."""
        nonlocal next_report
        now = time.perf_counter()
        if report is not None and now >= next_report:
            next_report = now + report_every
            states = result.states + (0 if counted else current.positions())
            walked = beside.walks.positions() if beside else 0
            report(Progress(now - began, states, walked, held(), result.restarts + 1))
        keep(current)

    root_test_done = saved_counters.get("root_test_done", False)  # a root test cut short runs again
    try:
        alone = one_run or layered  # one search to the end, after the root's test
        test = _root_test(root, budget, deadline, result) if alone and walk and not root_test_done else None
        lost_at_root = test is not None and test.lost()
        root_test_done = root_test_done or test is None or not test.open()
    except (MemoryError, OSError):  # the system refused the memory: the depth-first run may still fit
        lost_at_root = False
    if lost_at_root:
        result.verdict, result.found_by = LOST, CAPACITY
        result.seconds = time.perf_counter() - began
        return result
    status = reason = None
    try:
        if streamlines:
            streamlined = Streamlined(root, replace(budget, memory=streamline_memory))
        if layered:
            folder = None if checkpoint is None else checkpoint.path.with_name(checkpoint.path.name + ".layers")
            status, reason, path = _layered(
                root, budget, deadline, result, report, began, report_every, keep, folder, saved_arrays
            )  # fmt: skip
        while not layered:
            if streamlined is not None and _streamline(streamlined, schedule, result.states, budget, deadline):
                path, status, result.found_by = streamlined.winning_line(), K_WON, STREAMLINED
                result.hold(held())
                break
            scored = not one_run and result.restarts == 0 and schedule.scored_run > 0 and not rules.redeals
            cap = None if one_run else schedule.run_cap(result.restarts)
            if scored:
                cap = min(cap, schedule.scored_run)
            left = None if budget.states is None else budget.states - result.states - streamlined_positions()
            if left is not None and (cap is None or left <= cap):
                cap = left
            seed_random(result.restarts)
            run = DepthFirst(root, search_budget, min(result.restarts, schedule.max_noise), run, scored=scored)
            resume = None
            if saved_arrays is not None:
                run.restore(saved_arrays)
                resume, saved_arrays = saved_counters["status"], None
            status, reason = run.run(deadline, cap, tick, resume)
            if status not in (K_WON, K_LOST):
                keep(run, undecided=True)  # the next solve goes on from here
            _count_run(result, run)
            result.hold(held())
            if status == K_WON:
                path, result.found_by = run.winning_line(), DEPTH_FIRST
                break
            if status == K_LOST:
                result.found_by = DEPTH_FIRST
                break
            final_states = budget.states is not None and result.states + streamlined_positions() >= budget.states
            if reason in (REASON_TIME, REASON_MEMORY) or final_states or one_run:
                break
            if beams_apply(rules) and result.states >= schedule.beam_due(result.beams):
                path = _run_beam(root, result, budget, deadline, held(), run.table)
                if path is not None:
                    status, result.found_by = K_WON, BEAM
                    break
            tick(run, counted=True)  # after a beam, which may have run long
            if walk and beside is None and result.states >= schedule.walks_after:
                beside = _Beside(root, beside_memory)
            if beside is not None:
                decided, path = beside.turn(deadline, result, held)
                if decided is not None:
                    status = decided
                    break
                tick(run, counted=True)
            result.restarts += 1
    except (MemoryError, OSError):  # the system refused memory the budget allowed: no verdict, as at the budget
        status, reason = None, REASON_MEMORY
    if streamlined is not None:
        result.states += streamlined.positions()
    if status == K_LOST:
        result.verdict = LOST
    elif status == K_WON:
        result.raw_length = len(path)
        path = engine_line(board, path, rules)
        moves = shorten(board, path, rules, deadline) if shorten_moves else path
        if not is_solution(board, moves, rules):
            raise AssertionError("the solver's winning line does not replay: this is a bug, please report it")
        result.verdict, result.moves = WON, moves
    else:
        result.reason = reason
    result.seconds = saved_counters.get("seconds", 0.0) + time.perf_counter() - began
    return result


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
