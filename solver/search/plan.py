"""A solve's plan, made once: which searches apply to these rules and this budget, and their memory.

The premises (:mod:`solver.game.premises`) are asked here and only here for a solve: the rules become a
:class:`Premises` value, the mode and the budget a :class:`Plan`, and the scheduler, the root and the
drivers read those values instead of asking the rules again.  No field changes which verdict a solve
reaches, only which searches may reach it: every search the plan names is complete (the depth-first and
layered searches), a relaxation whose loss is proved (the root's capacity test, the walks), or a
win-finder whose lines are replayed (the streamlined search, beams, the real game's walk).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..game import premises
from ..game.board import Board
from ..game.rules import Rules
from ..kernels import layered
from .arrays import streamline_keys
from .result import Budget
from .schedule import Schedule

# How a solve searches: the schedule of restarts, beams and walks; one depth-first run to the end; the
# layered search.  The last two run the root's capacity test to the end first, with all the memory.
SCHEDULED, ONE_RUN, LAYERED = "scheduled", "one-run", "layered"
MODES = (SCHEDULED, ONE_RUN, LAYERED)


@dataclass(frozen=True, eq=False)
class Premises:
    """What the rules allow the searches, asked of :mod:`solver.game.premises` once."""

    relaxations: bool  # the capacity tests (each position's and the root's) and the suit-blind walks
    beams: bool  # beams may run (every card face up)
    streamline_keys: np.ndarray | None  # the streamlined search's keys; None: it does not run
    redeals: bool  # the game redeals: no scored first run, no dealt-card term in a beam's score
    layers: bool  # the layered search's proof holds, as far as the rules go
    strict: Rules | None  # the game's strict rules, where these (PySolFC's) only add moves to them

    @classmethod
    def of(cls, rules: Rules) -> Premises:
        return cls(
            relaxations=premises.relaxations_apply(rules),
            beams=premises.beams_apply(rules),
            streamline_keys=streamline_keys(rules),
            redeals=bool(rules.redeals),
            layers=premises.layers_apply(rules),
            strict=premises.strict_game(rules),
        )


def layers_fit(board: Board) -> bool:
    """Whether the board fits the layered search's encoding: no redeal left, piles few and low enough."""
    return (
        not board.redeals
        and len(board.piles) <= layered.MAX_PILES
        and max(len(pile) for pile in board.piles) <= layered.MAX_HEIGHT
    )


@dataclass(frozen=True, eq=False)
class Plan:
    """Which searches a solve runs, and the memory each may hold."""

    mode: str
    premises: Premises
    strict_probe: bool  # the strict game searched first, with a share of the budget (solver/search/strict.py)
    root_test_first: bool  # the root's capacity test to the end before the search (one run, layered)
    streamlined: bool  # the streamlined search's slices between the depth-first runs
    scored_run: int  # positions of the scored first run; 0: none
    beams: bool  # beams between the runs
    side_searches: bool  # the root's capacity test, then the walks, beside the runs
    depth_first_memory: int  # what the depth-first runs may hold, the root's capacity cache included
    side_memory: int
    streamline_memory: int

    @classmethod
    def make(
        cls, rules: Rules, board: Board, budget: Budget, schedule: Schedule, mode: str = SCHEDULED,
        checkpointed: bool = False,
    ) -> Plan:  # fmt: skip
        """The plan for this deal; a ``ValueError`` where the mode cannot search it, before any search."""
        if mode not in MODES:
            raise ValueError(f"mode {mode!r}: one of {', '.join(MODES)}")
        found = Premises.of(rules)
        if mode == LAYERED and not (found.layers and layers_fit(board)):
            raise ValueError(f"{rules.title}: {premises.LAYERS_PREMISES}")
        if checkpointed and mode == SCHEDULED:
            raise ValueError(
                "a checkpoint needs one_run or layered: the default schedule's restarts, beams and walks keep "
                "state that a checkpoint does not hold"
            )
        scheduled = mode == SCHEDULED
        side = found.relaxations and scheduled
        streamlined = scheduled and bool(schedule.streamline_slices) and found.streamline_keys is not None
        side_memory = int(budget.memory * schedule.walks_memory) if side else 0
        streamline_memory = int(budget.memory * schedule.streamline_memory) if streamlined else 0
        return cls(
            mode=mode,
            premises=found,
            strict_probe=scheduled and found.strict is not None and schedule.strict_share > 0,
            root_test_first=found.relaxations and not scheduled,
            streamlined=streamlined,
            scored_run=schedule.scored_run if scheduled and not found.redeals else 0,
            beams=found.beams and scheduled,
            side_searches=side,
            depth_first_memory=budget.memory - side_memory - streamline_memory,
            side_memory=side_memory,
            streamline_memory=streamline_memory,
        )
