"""What a solve is given and what it answers: the budget, the result and its record, progress reports."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..game.cards import card_text
from ..game.engine import Move
from ..words import (
    BEAM,
    CAPACITY,
    DEPTH_FIRST,
    LAYERS,
    LOST,
    PILES_TRAP,
    POSITIONS_KEY,
    SUIT_BLIND,
    TRAP,
    UNKNOWN,
    WALK,
    WON,
)

# The verdicts and search codes live in solver/words.py; they are importable from here as before.
__all__ = [
    "BEAM", "CAPACITY", "DEPTH_FIRST", "LAYERS", "LOST", "SUIT_BLIND", "UNKNOWN", "WALK", "WON", "Budget", "Progress",
    "SolveResult",
]  # fmt: skip


@dataclass(frozen=True)
class Budget:
    """Limits of one solve: wall seconds, bytes for the tables and stacks, positions searched."""

    seconds: float | None = 10.0
    memory: int = 2 << 30
    positions: int | None = None


@dataclass
class SolveResult:
    verdict: str
    moves: list[Move] = field(default_factory=list)
    found_by: str = ""  # which search decided, one of solver.words.FOUND_BY; "" if unknown
    positions: int = 0
    seconds: float = 0.0
    reason: str = ""  # why an `unknown`: one of solver.words.REASONS
    memory: int = 0  # the most bytes the tables and stacks held at once
    raw_length: int = 0  # moves in the search's own path, before shortening
    dead_ends: int = 0  # positions a relaxation proved lost
    capacity_dead_ends: int = 0  # ... of them, by the capacity relaxation (solver/kernels/capacity.py)
    lone_prunes: int = 0  # lone cards the lone-card rule kept from a host (summed over positions)
    safe_moves: int = 0  # safe foundation moves played by the depth-first runs
    restarts: int = 0  # runs cut short for another in a new move order (lost marks kept)
    evictions: int = 0  # times the table, full at its largest, forgot half its lost marks
    beams: int = 0  # beam searches run between depth-first runs
    walk_positions: int = 0  # positions of the suit-blind games' walks expanded (solver/kernels/suitblind.py)
    walk_named_low: int = 0  # ... lowest ranks named in the last of them (all: the real game)
    walk_named_high: int = 0  # ... and highest ranks
    root_test_positions: int = 0  # abstract positions the root's capacity test searched
    trapped: tuple[int, ...] = ()  # the cards a trap at the deal keeps from ever coming up (kernels/trap.py)
    strict_verdict: str = ""  # under PySolFC's rules: the strict game's verdict on the layout (search/strict.py)
    strict_positions: int = 0  # ... and the positions its search took (in ``positions`` too)

    def hold(self, memory: int) -> None:
        """Note that the searches held ``memory`` bytes at once."""
        self.memory = max(self.memory, memory)

    def explanation(self) -> str:
        """Why the verdict holds, in plain words for the person who asked (``found_by`` has the
        technical name of the search that decided)."""
        if self.verdict == WON:
            return "a winning line was found and replayed legally"
        if self.verdict == UNKNOWN:
            return f"the {self.reason} budget ran out first"
        if self.found_by in (DEPTH_FIRST, LAYERS) and self.positions == self.strict_positions:  # none but the probe's
            return "proved lost at the deal itself, before any search: even looser rules cannot clear the table"
        if self.found_by in (TRAP, PILES_TRAP) and self.trapped:
            return f"{self._why_lost()}; never up: {' '.join(card_text(card) for card in self.trapped)}"
        return self._why_lost()

    def _why_lost(self) -> str:
        kept = ""
        if self.walk_named_high:
            kept = f" (those of the {self.walk_named_high} highest ranks still count)"
        elif self.walk_named_low:
            kept = f" (those of the {self.walk_named_low} lowest ranks still count)"
        return {
            DEPTH_FIRST: "every position that can be reached was searched, and none is won",
            LAYERS: "every position that can be reached was searched, layer by layer, and none is won",
            SUIT_BLIND: f"it could not be won even if the suits of the cards that move did not matter{kept}",
            CAPACITY: "it could not be won even if the cards that move could be anywhere there is room for them",
            TRAP: "a card lies under the first pile's top cards, which can never move, and every redeal deals "
            "it back beneath them: it never comes up",
            PILES_TRAP: "some cards of the first few piles can never come up: whatever is played, they stay among "
            "the first piles under cards that cannot move, and every redeal deals them back there",
        }.get(self.found_by, "")

    def _strict_fields(self) -> dict:
        """Where the strict probe ran (PySolFC's rules): its verdict and positions."""
        return {"strict": self.strict_verdict, "strict_positions": self.strict_positions} if self.strict_verdict else {}

    def record(self) -> dict:
        """The fields of a batch record or a ``--json`` answer that say what the solve found.  The walks'
        keys keep the walk's first name, "chain": records on disk and scripts read them so."""
        return {
            "verdict": self.verdict,
            "reason": self.reason,
            "found_by": self.found_by,
            POSITIONS_KEY: self.positions,
            "seconds": round(self.seconds, 4),
            "moves": len(self.moves),
            "raw_moves": self.raw_length,
            "memory_mib": round(self.memory / 2**20, 1),
            "beams": self.beams,
            "evictions": self.evictions,
            "chain_positions": self.walk_positions,
            "chain_named": self.walk_named_low,
            "chain_named_high": self.walk_named_high,
            "root_test_positions": self.root_test_positions,
            **self._strict_fields(),
        }


@dataclass(frozen=True)
class Progress:
    """Where a solve under way stands, for a report to the person waiting on it."""

    seconds: float
    positions: int  # positions searched so far, every depth-first run counted
    walked: int  # positions of the relaxed games walked (solver/kernels/suitblind.py)
    memory: int  # bytes held by the tables and stacks (the walks' included)
    runs: int  # depth-first runs begun (restarts + 1)
