"""One interface for every search of a solve: the scheduler (:mod:`.scheduler`) hands each its slices.

A search is opened by making it (from the deal's :class:`~.root.Root`), then advanced a slice at a time
-- to a deadline, or to a number of positions in all -- until it has an outcome or can say nothing more.
Its outcome is a verdict only where its proof says so: a win is a winning line that the reference
engine replays; a loss is either every reachable position searched (the depth-first and layered
searches) or a relaxed game of the deal that cannot be won (the root's capacity test, the suit-blind
walks).  The win-finders (beams, the streamlined search) never answer ``LOST``: when they end without
a win they are closed, and nothing follows from that.

The six drivers: :class:`~.dfs.DepthFirst`, :class:`~.streamline.Streamlined`, :class:`~.beam.Beam`,
:class:`~.capacity.RootTest`, :class:`~.suitblind.Walks`, :class:`~.layered.Layered`.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np

from ..game.engine import Move
from ..words import LOST, WON

OPEN = "open"  # an outcome: no verdict (yet)
OUTCOMES = (WON, LOST, OPEN)


@runtime_checkable
class Search(Protocol):
    """What the scheduler asks of every search."""

    found_by: str  # the word its verdict is recorded under (solver/words.py, FOUND_BY)
    saveable: bool  # whether ``state`` and ``restore`` work (a checkpoint can hold it)
    reason: str  # why it last stopped without an outcome: a budget (solver/words.py, REASONS) or ""

    def open(self) -> bool:
        """Whether advancing it may still decide something."""

    def advance(self, deadline: float | None, up_to: int | None = None) -> None:
        """Search on until an outcome, the wall-clock ``deadline``, ``up_to`` positions in all, its own
        budget, or its end (None: no such limit)."""

    def outcome(self) -> str:
        """``WON``, ``LOST`` or ``OPEN``."""

    def positions(self) -> int:
        """Positions it has searched so far, in its own unit (real or abstract positions)."""

    def bytes(self) -> int:
        """Bytes it holds now."""

    def winning_line(self) -> list[Move]:
        """After ``WON``: the moves from the deal, its safe moves included, in play order."""

    def state(self) -> dict[str, np.ndarray]:
        """Its whole state between two slices (``saveable`` searches only)."""

    def restore(self, arrays: dict[str, np.ndarray]) -> None:
        """Take up a state that ``state`` gave (``saveable`` searches only)."""


class NotSaveable:
    """The ``state`` and ``restore`` of a search that a checkpoint cannot hold."""

    saveable = False

    def state(self) -> dict[str, np.ndarray]:
        raise NotImplementedError(f"{type(self).__name__} cannot be saved")

    def restore(self, arrays: dict[str, np.ndarray]) -> None:
        raise NotImplementedError(f"{type(self).__name__} cannot be restored")
