"""The strict probe: under PySolFC's rules, the game's strict rules searched first, on the same layout.

PySolFC's rules of every game but Spanish Patience only add moves to the strict ones: a foundation's top
card may come back to the tableau, and Ripple Fan moves runs (``solver.game.premises.strict_game``).
So every line of the strict game is a line of PySolFC's from the same position, and a deal the strict
rules win is won in PySolFC -- by the same line, which the solve replays under PySolFC's rules like any
other before it reports it.  The converse does not hold: a strict loss may be a PySolFC win, a card
brought back down opening the way, so when the strict search ends without a win nothing follows for
PySolFC's game, and its own search goes on.

What the strict search gains is its pruning: with cards that stay up, the safe foundation moves, the
lone-card rule, the dead tests, the relaxations, the walks and the traps all hold (each with its proof
in solver/kernels), where with cards coming back most of them do not.  The probe runs the strict game's
whole schedule (:mod:`.scheduler`) with ``Schedule.strict_share`` of the time and of the positions, before
PySolFC's own search takes the rest.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from ..game.board import Board
from ..game.engine import Move
from ..game.rules import Rules
from ..words import LOST, STRICT, UNKNOWN, WON
from .checkpoint import Keeper
from .plan import Plan
from .protocol import OPEN, NotSaveable
from .result import Budget, Progress, SolveResult
from .root import Root
from .schedule import Schedule


class StrictProbe(NotSaveable):
    """The strict game of one PySolFC deal, searched once to a deadline: a :class:`~.protocol.Search`
    whose outcome is ``WON`` or ``OPEN``, never ``LOST`` (``strict_verdict`` keeps the strict game's own)."""

    found_by = STRICT
    reason = ""

    def __init__(
        self, board: Board, strict: Rules, budget: Budget, schedule: Schedule,
        report: Callable[[Progress], None] | None = None, report_every: float = 10.0,
    ) -> None:  # fmt: skip
        """``budget``: the probe's memory and positions (its time is the deadline ``advance`` is given);
        ``report``: called with the strict search's progress every ``report_every`` seconds."""
        self.board, self.strict, self.budget, self.schedule = board, strict, budget, schedule
        self.report, self.report_every = report, report_every
        self.result = SolveResult(UNKNOWN)  # the strict game's
        self.strict_verdict = ""  # WON, LOST or UNKNOWN once it has run
        self.line: list[Move] = []

    def open(self) -> bool:
        return not self.strict_verdict

    def advance(self, deadline: float | None, up_to: int | None = None) -> None:
        """The strict game's schedule, to a verdict, ``deadline`` or ``up_to`` positions: once."""
        from .scheduler import Clock, Scheduler  # the scheduler runs this probe, and this probe a scheduler

        budget = self.budget if up_to is None else replace(self.budget, positions=up_to)
        plan = Plan.make(self.strict, self.board, budget, self.schedule)
        root = Root(self.board, self.strict, self.schedule, plan.premises)
        if root.trap() is not None:
            self.strict_verdict = LOST
            return
        clock = Clock(replace(budget, seconds=None), self.report, self.report_every, deadline)
        outcome, self.line = Scheduler(root, plan, budget, self.result, clock, Keeper(None, {})).decide()
        self.strict_verdict = {WON: WON, LOST: LOST}.get(outcome, UNKNOWN)

    def outcome(self) -> str:
        return WON if self.strict_verdict == WON else OPEN

    def positions(self) -> int:
        return self.result.positions

    def bytes(self) -> int:
        """Nothing once it has run: its searches let their memory go when they end (``result.memory``: the
        most they held)."""
        return 0

    def winning_line(self) -> list[Move]:
        return self.line
