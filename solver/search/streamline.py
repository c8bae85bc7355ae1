"""The streamlined search: one depth-first run that knows positions again by what the building rule reads.

Its keys (``solver.kernels.position.streamlined_keys``) forget the suits where the tableau builds by
rank, and all but the colour where it builds by alternate colour: once it has searched a position, it
skips every position that differs from it only by which suit lies where among cards alike -- the
shuffles of moved cards between hosts of one rank that fill most of a hard deal's space
(results/level-structure.md).  And it plays every foundation move at once (``codes.SAFE_ANY``), not
only the provably safe ones.  Both are Solvitaire's "streamliners" (suit symmetry, auto-foundations),
which it runs first in its default mode; without them Solvitaire decides none of Good Measure 2, 42
and 56 within 20 s, with them in 0.1-0.7 s.

Both make the search incomplete: a skipped position, or a card kept down, may have held the only win.
So it is a probe.  Its wins are real: its moves are the real game's, made on the real board, and the
solve replays its line like any other.  When it ends without a win, nothing follows from that, and the
solve goes on as if it had not run.  What it shares with the other searches is the root's cache of
capacity verdicts, which hold for the abstract positions they name whoever asked (the capacity search
reads the rules' ranks and empty-pile rule only, not the safe-move rule).

Alone, to at most 2^20 positions, it won 99 of Baker's Dozen deals 1-100 (every won one), 83 of Good
Measure's and 98 of Portuguese Solitaire's; Good Measure 42 and 56 in 20,000 and 69,000 positions,
where the depth-first runs and beams took 262,144 positions and 2.7 s and 1.9 s.  But it misses wins
the depth-first runs find at once (on the small corpora, 0-12 of 100-244 won deals a game), so the
schedule gives it slices between the runs (``Schedule.streamline_slices``), not the whole first turn.
"""

from __future__ import annotations

import time

from ..game.engine import Move
from ..kernels.codes import LOST, SAFE_ANY, WON
from ..words import REASON_MEMORY
from .arrays import streamline_keys
from .dfs import DepthFirst
from .result import Budget
from .root import Root


class Streamlined:
    """The streamlined run of one solve, advanced a slice at a time; None of it is a verdict but a win."""

    def __init__(self, root: Root, budget: Budget):
        keys = streamline_keys(root.rules)
        rules = root.kr._replace(safe=SAFE_ANY) if root.schedule.streamline_foundations else root.kr
        self.run = None if keys is None else DepthFirst(root, budget, keys=keys, kernel_rules=rules, probe=True)
        self.stage = 0  # the schedule's slices given so far
        self.searched = 0  # positions searched, kept when the run is let go
        self.status = None  # the run's last status; None before its first slice

    def open(self) -> bool:
        """Whether it may still find a win: it has keys, has not ended, and has slices left."""
        return self.run is not None and self.status not in (WON, LOST)

    def won(self) -> bool:
        return self.status == WON

    def positions(self) -> int:
        return self.searched

    def bytes(self) -> int:
        return 0 if self.run is None else self.run.bytes()

    def advance(self, deadline: float | None, up_to: int) -> None:
        """Search on until ``up_to`` positions in all, a win, its end or the deadline."""
        run = self.run
        if not self.open() or (deadline is not None and time.perf_counter() > deadline):
            return
        self.status, reason = run.run(deadline, up_to, resume=self.status)  # None: open the root first
        self.searched = run.positions()
        if self.status == LOST or reason == REASON_MEMORY:  # its end without a win proves nothing: let it go
            self.close()

    def close(self) -> None:
        self.run, self.status = None, LOST

    def winning_line(self) -> list[Move]:
        return self.run.winning_line()
