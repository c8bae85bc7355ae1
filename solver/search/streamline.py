"""The streamlined search: depth-first runs that know positions again by what the building rule reads.

Its keys (``solver.kernels.position.streamlined_keys``) forget the suits where the tableau builds by
rank, and all but the colour where it builds by alternate colour: once it has searched a position, it
skips every position that differs from it only by which suit lies where among cards alike -- the
shuffles of moved cards between hosts of one rank that fill most of a hard deal's space
(results/level-structure.md).  And it plays every foundation move at once (``codes.SAFE_ANY``), not
only the provably safe ones.  Both are Solvitaire's "streamliners" (suit symmetry, auto-foundations),
which it runs first in its default mode.

Both make the search incomplete: a skipped position, or a card kept down, may have held the only win.
So it is a probe.  Its wins are real: its moves are the real game's, made on the real board, and the
solve replays its line like any other.  When it ends without a win, nothing follows from that, and the
solve goes on as if it had not run.  What it shares with the other searches is the root's cache of
capacity verdicts, which hold for the abstract positions they name whoever asked (the capacity search
reads the rules' ranks and empty-pile rule only, not the safe-move rule).

It misses wins the depth-first runs find at once, so the schedule gives it slices between the runs
(``Schedule.streamline_slices``), not the whole first turn.  Its time to a win swings with its move
order, so it restarts as the depth-first runs do, after Luby's numbers of ``Schedule.streamline_run``
positions, each run in another perturbed order keeping the runs' table, until it has searched
``Schedule.streamline_restarts_until`` positions; then it goes on in one run in the first order.  The
measurements behind these choices: results/tuning.md.
"""

from __future__ import annotations

import time

from ..game.engine import Move
from ..kernels.codes import LOST, SAFE_ANY, WON
from ..kernels.position import seed_random
from ..words import REASON_MEMORY, REASON_TIME, STREAMLINED
from ..words import WON as WON_WORD
from .dfs import DepthFirst
from .protocol import OPEN, NotSaveable
from .result import Budget
from .root import Root
from .schedule import luby

RESTART_SEED = 1 << 20  # its restarts' seeds, apart from the depth-first runs' (their restart counts)


class Streamlined(NotSaveable):
    """The streamlined run of one solve, advanced a slice at a time; None of it is a verdict but a win.

    Within its slices it restarts after Luby's numbers of ``Schedule.streamline_run`` positions, each
    new run in another random move order (noise 1 to ``Schedule.streamline_noise``) and keeping the table
    of the runs before, as the depth-first runs do (:meth:`Schedule.run_cap`); from
    ``Schedule.streamline_restarts_until`` positions on, one last run in the first order.

    A :class:`~.protocol.Search` whose outcome is ``WON`` or ``OPEN``, never ``LOST``."""

    found_by = STREAMLINED
    reason = ""

    def __init__(self, root: Root, budget: Budget):
        self.root, self.budget, self.schedule = root, budget, root.schedule
        self.keys = root.premises.streamline_keys
        self.rules = (
            root.rule_codes._replace(safe=SAFE_ANY) if self.schedule.streamline_foundations else root.rule_codes
        )
        self.restarts = 0
        self.earlier = 0  # positions searched by the runs before this one
        self.run = None if self.keys is None else self._run(None)
        self.stage = 0  # the schedule's slices given so far
        self.status = None  # the run's last status; None before its first slice

    @property
    def last(self) -> bool:
        """Whether the restarts are over: the present run, in the first order, goes on to the end."""
        return bool(self.schedule.streamline_run) and self.earlier >= self.schedule.streamline_restarts_until

    def _run(self, before: DepthFirst | None) -> DepthFirst:
        noise = 0 if before is None or self.last else 1 + (self.restarts - 1) % self.schedule.streamline_noise
        return DepthFirst(self.root, self.budget, noise, before, keys=self.keys, kernel_rules=self.rules, probe=True)

    def _run_cap(self) -> int | None:
        """Positions the present run may search before the next restart; None: no more restarts."""
        unit = self.schedule.streamline_run
        if not unit or self.last:
            return None
        return min(unit * luby(self.restarts + 1), self.schedule.streamline_restarts_until - self.earlier)

    def open(self) -> bool:
        """Whether it may still find a win: it has keys, has not ended, and has slices left."""
        return self.run is not None and self.status not in (WON, LOST)

    def won(self) -> bool:
        return self.status == WON

    def outcome(self) -> str:
        return WON_WORD if self.won() else OPEN

    def positions(self) -> int:
        return self.earlier + (self.run.positions() if self.run is not None else 0)

    def bytes(self) -> int:
        return 0 if self.run is None else self.run.bytes()

    def advance(self, deadline: float | None, up_to: int | None = None) -> None:
        """Search on until ``up_to`` positions in all, a win, its end or the deadline."""
        up_to = 1 << 62 if up_to is None else up_to
        while self.open() and (deadline is None or time.perf_counter() <= deadline):
            run, cap = self.run, self._run_cap()
            if cap is not None and run.positions() >= cap:  # restart, keeping the table
                self.earlier += run.positions()
                self.restarts += 1
                seed_random(RESTART_SEED + self.restarts)  # the same positions and line every time
                self.run, self.status = self._run(run), None
                continue
            limit = up_to - self.earlier if cap is None else min(up_to - self.earlier, cap)
            if run.positions() >= limit:
                return
            run.advance(deadline, limit)  # the first time, it opens the root
            self.status, reason = run.status, run.reason
            if self.status == LOST or reason == REASON_MEMORY:  # its end without a win proves nothing
                self.close()
            elif self.status == WON or reason == REASON_TIME:
                return

    def close(self) -> None:
        if self.run is not None:
            self.earlier += self.run.positions()
        self.run, self.status = None, LOST

    def winning_line(self) -> list[Move]:
        return self.run.winning_line()
