"""The scheduler: the plan's searches, each handed its slices of the one budget, until one decides.

By the plan's mode (:mod:`.plan`):

- scheduled (the default): depth-first runs restarted in a perturbed move order each time a run uses up
  its positions (``Schedule.run_cap``), since a run that goes wrong early can spend long below that move
  while another order wins at once.  Every run keeps the lost marks of the runs before, and is complete
  but for positions proved lost, so the first run that ends gives the verdict: restarts change how fast
  a verdict comes, never which.  Between the runs, from the first, the streamlined search takes its
  slices (``Schedule.streamline_due``); once a deal has resisted a while, beams of growing width
  (``Schedule.beam_due``); and from ``Schedule.walks_after`` positions, the root's capacity test to its
  end, then the walks of the suit-blind games and of the real game (:class:`SideSearches`), in their own
  shares of the time and memory.  The win-finders (streamlined search, beams) prove nothing when they end
  without a win, and their wins are replayed like any other.
- one run: the root's capacity test to its end with the whole memory (it lets it go after), then a
  single depth-first run to its end, with no restarts, beams or walks: all the memory for one table, for
  deals that need hours and many GiB.
- layered: the root's capacity test as for one run, then the layered search (:mod:`.layered`).

The memory every search holds is summed in one place (:class:`Holdings`); a checkpoint is written
between slices by the :class:`~.checkpoint.Keeper`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from functools import partial

from ..game.engine import Move
from ..kernels import capacity, codes
from ..kernels.codes import PAUSED
from ..kernels.position import seed_random
from ..words import LOST, REASON_MEMORY, REASON_TIME, STREAMLINED, UNKNOWN, WON
from .beam import Beam, beam_bytes
from .capacity import RootTest
from .checkpoint import Keeper
from .dfs import DepthFirst
from .layered import Layered
from .plan import LAYERED, ONE_RUN, Plan
from .protocol import OPEN, Search
from .result import Budget, Progress, SolveResult
from .root import Root
from .streamline import Streamlined
from .strict import StrictProbe
from .suitblind import Walks


class Clock:
    """A solve's wall clock: when it began, its deadline, and when the next progress report is due."""

    def __init__(
        self, budget: Budget, report: Callable[[Progress], None] | None = None, every: float = 10.0,
        deadline: float | None = None,
    ) -> None:  # fmt: skip
        """``deadline``: an earlier one than the budget's (a search given a share of another's time)."""
        self.began = time.perf_counter()
        self.deadline = None if budget.seconds is None else self.began + budget.seconds
        if deadline is not None:
            self.deadline = deadline if self.deadline is None else min(deadline, self.deadline)
        self.report, self.every = report, every
        self.next_report = self.began + every

    def elapsed(self) -> float:
        return time.perf_counter() - self.began

    def report_due(self) -> bool:
        """Whether a report is due now (and then the next one is ``every`` seconds on)."""
        now = time.perf_counter()
        if self.report is None or now < self.next_report:
            return False
        self.next_report = now + self.every
        return True


class Holdings:
    """What a solve holds at once, summed here only: the root's capacity cache and the searches' arrays."""

    def __init__(self, root: Root):
        self.root = root
        self.searches: dict[str, Search | SideSearches | None] = {}

    def hold(self, name: str, search: Search | SideSearches | None) -> None:
        """``search`` holds memory under ``name`` from now on (None: nothing any more)."""
        self.searches[name] = search

    def bytes(self) -> int:
        return self.root.bytes() + sum(search.bytes() for search in self.searches.values() if search is not None)


class SideSearches:
    """The searches beside the depth-first runs: the root's capacity test, then the walks; each takes a
    share of the time since they began (``Schedule.root_test_share``, then ``walks_share``), and they hold
    ``memory`` between them."""

    def __init__(self, root: Root, memory: int):
        self.schedule = root.schedule
        self.walks = Walks(root, memory)
        self.root_test = RootTest(root, memory - self.walks.bytes())  # done before the walks need more
        self.root_test_turn = False  # whether this turn is the root test's

    def bytes(self) -> int:
        """What they hold; on the root test's turn, its table at its largest (it lets it go when it ends)."""
        root_test = self.root_test.peak if self.root_test_turn else self.root_test.bytes()
        return self.walks.bytes() + root_test

    def _advance(self, deadline: float | None) -> None:
        """Run for the time owed: a share of the time since they began, this turn included.  The root's
        capacity test takes it first, until it ends, with a larger share, then the walks."""
        walks, root_test = self.walks, self.root_test
        now = time.perf_counter()
        share = self.schedule.root_test_share if root_test.open() else self.schedule.walks_share
        owed = (share * (now - walks.began) - walks.seconds - root_test.seconds) / (1 - share)
        if deadline is not None:
            owed = min(owed, deadline - now)
        if owed <= 0:
            return
        if root_test.open():
            root_test.advance(now + owed)
        elif walks.open():
            walks.advance(now + owed)

    def turn(self, deadline: float | None, result: SolveResult, held: Callable[[], int]) -> Search | None:
        """Take a turn and note it in ``result`` (``held``: what the whole solve holds); the search that
        decided the deal, if one did."""
        walks, root_test = self.walks, self.root_test
        self.root_test_turn = root_test.open()  # then the walks do not grow this turn
        self._advance(deadline)
        result.hold(held())  # the root test's table at its largest, on its turns
        self.root_test_turn = False
        result.root_test_positions = root_test.positions()
        if root_test.outcome() != OPEN:
            return root_test
        result.walk_positions = walks.positions()
        result.walk_named_low, result.walk_named_high = walks.named()
        return walks if walks.outcome() != OPEN else None


class Scheduler:
    """The searches of one solve's plan, run until one decides or the budget runs out."""

    def __init__(self, root: Root, plan: Plan, budget: Budget, result: SolveResult, clock: Clock, keeper: Keeper):
        self.root, self.plan, self.budget, self.schedule = root, plan, budget, root.schedule
        self.result, self.clock, self.keeper = result, clock, keeper
        self.holdings = Holdings(root)
        self.side: SideSearches | None = None
        self.streamlined: Streamlined | None = None
        self.reason = ""  # why the outcome is OPEN: the budget that ran out
        self.root_test_done = keeper.counters.get("root_test_done", False)  # a root test cut short runs again
        if keeper.counters:
            result.root_test_positions = keeper.counters["root_test_positions"]
            result.hold(keeper.counters["memory"])

    def decide(self) -> tuple[str, list[Move]]:
        """The outcome (WON, LOST or OPEN, then ``reason`` says why) and, after WON, the winning line;
        ``result.found_by`` names the search that decided."""
        if self.plan.strict_probe:
            probe = self._strict_probe()
            if probe.outcome() == WON:
                self.result.found_by = probe.found_by
                self.result.positions += self.result.strict_positions
                return WON, probe.winning_line()
        if not self.plan.root_test_first:
            self.root_test_done = True
        elif not self.root_test_done and self._root_test_to_end():
            self.result.found_by = RootTest.found_by
            return LOST, []
        try:
            if self.plan.streamlined:
                memory = replace(self.budget, memory=self.plan.streamline_memory)
                self.streamlined = Streamlined(self.root, memory)
                self.holdings.hold("streamlined", self.streamlined)
            return self._layered() if self.plan.mode == LAYERED else self._restarts()
        except (MemoryError, OSError):  # the system refused memory the budget allowed: as at the budget
            self.reason = REASON_MEMORY
            return OPEN, []
        finally:
            self.result.positions += self._positions_beside()
            self.holdings.searches.clear()  # what the searches hold goes with them, not with the result

    def _strict_probe(self) -> StrictProbe:
        """Under PySolFC's rules, the game's strict rules first (:mod:`.strict`), with ``Schedule.strict_share``
        of the time and of the positions, and all the memory while it runs; its positions count in all."""
        budget, share, result = self.budget, self.schedule.strict_share, self.result
        deadline = None if budget.seconds is None else self.clock.began + share * budget.seconds
        up_to = None if budget.positions is None else max(1, int(share * budget.positions))
        memory = budget.memory - self.root.bytes()
        probe = StrictProbe(
            self.root.board, self.plan.premises.strict, replace(budget, memory=memory), self.schedule,
            self.clock.report, self.clock.every,
        )  # fmt: skip
        try:
            probe.advance(deadline, up_to)
        except (MemoryError, OSError):  # the system refused memory the budget allowed: a strict unknown
            probe.strict_verdict = UNKNOWN
        result.strict_positions = probe.positions()
        result.hold(self.root.bytes() + probe.result.memory)
        result.strict_verdict = probe.strict_verdict
        return probe

    def _root_test_to_end(self) -> bool:
        """One run's and the layered search's first step: the root's capacity test to its end, or to the
        deadline, with the whole memory (it lets it go before the search begins); whether it proved the
        deal lost.  None runs where the safe moves alone win."""
        root, result = self.root, self.result
        if root.won:
            self.root_test_done = True
            return False
        try:
            test = RootTest(root, self.budget.memory - root.bytes())
            test.advance(self.clock.deadline)
        except (MemoryError, OSError):  # the system refused the memory: the search may still fit
            return False
        result.root_test_positions = test.positions()
        result.hold(root.bytes() + test.peak)
        self.root_test_done = not test.open()
        return test.outcome() == LOST

    def _restarts(self) -> tuple[str, list[Move]]:
        """The scheduled and one-run modes: depth-first runs, and between them the other searches' slices."""
        result, schedule, plan = self.result, self.schedule, self.plan
        run = None
        while True:
            if self.streamlined is not None and self._streamline():
                result.found_by = STREAMLINED
                result.hold(self.holdings.bytes())
                return WON, self.streamlined.winning_line()
            run = self._next_run(run)
            if run.outcome() == OPEN:
                self.keeper.keep(run, partial(self._counters, run), undecided=True)  # the next solve goes on here
            self._count(run)
            result.hold(self.holdings.bytes())
            if run.outcome() != OPEN:
                result.found_by = run.found_by
                return run.outcome(), run.winning_line() if run.outcome() == WON else []
            if self._budget_spent(run):
                return OPEN, []
            if plan.beams and result.positions >= schedule.beam_due(result.beams):
                line = self._beam(run)
                if line is not None:
                    result.found_by = Beam.found_by
                    return WON, line
            self._slice_done(run, counted=True)  # after a beam, which may have run long
            if plan.side_searches and self.side is None and result.positions >= schedule.walks_after:
                self.side = SideSearches(self.root, plan.side_memory)
                self.holdings.hold("side", self.side)
            if self.side is not None:
                decided = self.side.turn(self.clock.deadline, result, self.holdings.bytes)
                if decided is not None:
                    result.found_by = decided.found_by
                    return decided.outcome(), decided.winning_line() if decided.outcome() == WON else []
                self._slice_done(run, counted=True)
            result.restarts += 1

    def _next_run(self, before: DepthFirst | None) -> DepthFirst:
        """The next depth-first run, taking over ``before``'s table, advanced to its cap: the scored first
        run's, Luby's (``Schedule.run_cap``), the positions left of the budget, or none in one run."""
        result, schedule = self.result, self.schedule
        restarts, one_run = result.restarts, self.plan.mode == ONE_RUN
        scored = restarts == 0 and self.plan.scored_run > 0
        cap = None if one_run else schedule.run_cap(restarts)
        if scored:
            cap = min(cap, self.plan.scored_run)
        if self.budget.positions is not None:
            left = self.budget.positions - result.positions - self._positions_beside()
            cap = left if cap is None or left <= cap else cap
        seed_random(restarts)
        memory = replace(self.budget, memory=self.plan.depth_first_memory)
        run = DepthFirst(self.root, memory, min(restarts, schedule.max_noise), before, scored=scored)
        self.holdings.hold("depth-first", run)
        saved = self.keeper.take_arrays()
        if saved is not None:
            run.restore(saved)
            run.status = self.keeper.counters["status"]
            del saved  # a table's size: not to be held beside the run's own
        run.on_slice = self._slice_done
        try:
            run.advance(self.clock.deadline, cap)
        finally:
            run.on_slice = None  # no cycle between the run and this scheduler: their memory goes with them
        return run

    def _budget_spent(self, run: DepthFirst) -> bool:
        """Whether the restarts end here without a verdict: time or memory ran out, the positions did, or
        the one run ended; ``reason`` says which."""
        self.reason = run.reason
        searched = self.result.positions + self._positions_beside()
        spent = self.budget.positions is not None and searched >= self.budget.positions
        return run.reason in (REASON_TIME, REASON_MEMORY) or spent or self.plan.mode == ONE_RUN

    def _streamline(self) -> bool:
        """Give the streamlined search the slices due after the depth-first positions searched so far, within
        the budget's positions, which its own count against; whether it won."""
        streamlined, searched, budget = self.streamlined, self.result.positions, self.budget.positions
        while streamlined.open():
            due = self.schedule.streamline_due(streamlined.stage)
            if due is None:
                streamlined.close()  # its memory goes back
            if due is None or searched < due[0]:
                break
            streamlined.stage += 1
            left = None if budget is None else budget - searched - self.result.strict_positions
            up_to = due[1] if left is None else min(due[1], left)
            streamlined.advance(self.clock.deadline, up_to)
        return streamlined.outcome() == WON

    def _positions_beside(self) -> int:
        """Positions of the searches beside the depth-first runs that count against the budget but not in the
        schedule's triggers: the streamlined search's and the strict probe's (``result.positions`` gets them
        at the end)."""
        streamlined = self.streamlined.positions() if self.streamlined is not None else 0
        return streamlined + self.result.strict_positions

    def _beam(self, run: DepthFirst) -> list[Move] | None:
        """The schedule's next beam, as wide as the memory left allows; its winning line or None."""
        root, schedule, result = self.root, self.schedule, self.result

        def bytes_needed(width: int) -> int:
            return beam_bytes(root.arrays.board, root.board.cards_in_play(), width, schedule, root.arrays.found.size)

        held = self.holdings.bytes()
        width, room = schedule.beam_width(result.beams), self.budget.memory - held
        while width > schedule.beam_first_width and bytes_needed(width) > room:
            width //= 2
        result.beams += 1
        if bytes_needed(width) > room:
            return None
        result.hold(held + bytes_needed(width))
        beam = Beam(root, width, run.table)  # it skips the runs' lost marks
        beam.advance(self.clock.deadline)
        return beam.winning_line() if beam.outcome() == WON else None

    def _layered(self) -> tuple[str, list[Move]]:
        """The layered mode's search, with the whole budget."""
        result = self.result
        search = Layered(self.root, self.budget, folder=self.keeper.layers_folder())
        saved = self.keeper.take_arrays()
        if saved is not None:
            search.restore(saved)
        search.on_slice = self._layer_slice_done
        try:
            search.advance(self.clock.deadline)
        finally:
            search.on_slice = None
        if search.outcome() == OPEN:
            self.keeper.keep(search, partial(self._counters, search), undecided=True)
        result.positions, result.dead_ends = search.positions(), search.dead
        result.hold(search.peak)
        result.found_by = search.found_by if search.outcome() != OPEN else ""
        self.reason = search.reason
        return search.outcome(), search.winning_line()

    def _count(self, run: DepthFirst) -> None:
        """Add a finished depth-first run's counters to the result's."""
        result = self.result
        result.positions += run.positions()
        result.dead_ends += int(run.meta[codes.M_DEAD])
        result.lone_prunes += int(run.meta[codes.M_LONE])
        result.safe_moves += int(run.meta[codes.M_SAFE])
        result.capacity_dead_ends = int(run.root.capacity_meta[capacity.C_DEAD])  # counted across runs
        result.evictions = run.evictions

    def _slice_done(self, run: DepthFirst, counted: bool = False) -> None:
        """Between a run's slices: a progress report if one is due, and the checkpoint.  ``counted``: the
        run's positions are in ``result.positions`` already."""
        if self.clock.report_due():
            positions = self.result.positions + (0 if counted else run.positions())
            walked = self.side.walks.positions() if self.side is not None else 0
            runs = self.result.restarts + 1
            self.clock.report(Progress(self.clock.elapsed(), positions, walked, self.holdings.bytes(), runs))
        self.keeper.keep(run, partial(self._counters, run))

    def _layer_slice_done(self, search: Layered) -> None:
        if self.clock.report_due():
            self.clock.report(Progress(self.clock.elapsed(), search.positions(), 0, search.bytes(), 1))
        self.keeper.keep(search, partial(self._counters, search))

    def _counters(self, search: DepthFirst | Layered) -> dict:
        """What a checkpoint holds of the solve beside the search's arrays."""
        layered = isinstance(search, Layered)
        return {
            "status": PAUSED if layered else int(search.status),
            "positions": search.positions(),
            "root_test_done": self.root_test_done,
            "root_test_positions": self.result.root_test_positions,
            "seconds": self.keeper.seconds + self.clock.elapsed(),
            "memory": max(self.result.memory, self.holdings.bytes(), search.bytes() if layered else 0),
        }
