"""The solver's tuning, as one value: how ``solve()`` shares its budget between its searches.

No field changes which verdict a solve reaches, only how fast (every
search it schedules is complete, a win-finder whose lines are replayed, or
a relaxation whose loss is proved): the tests pass small schedules to make
restarts, beams, walks and the root's test happen on small deals.
"""

from __future__ import annotations

from dataclasses import dataclass

from .memory import STRETCH_SLOTS

RUN_GROWTHS = ("luby", "double", "fixed")


@dataclass(frozen=True)
class Schedule:
    # Depth-first runs (solver/search/dfs.py).
    run_nodes: int = 1 << 11  # new positions of the first run before a restart; see run_cap() and beam_due()
    run_growth: str = "luby"  # how later runs grow: "luby", "double" or "fixed" (see run_cap())
    max_noise: int = 3  # how far a restart may perturb the move order
    # The first run: at most this many new positions, each position's moves in the order of the beam's score
    # of their children (solver/kernels/score.py); 0: none.  Its order and the generator's win different deals
    # fast (results/tuning.md).
    scored_run: int = 1 << 10  # (in games without redeals: solver/kernels/score.py)
    chunk_nodes: int = 1 << 16  # at most this many new positions between two looks at the clock
    chunk_work: int = 1 << 17  # ... and at most this many moves tried
    # A run's first table (16 bytes a slot), doubled as it fills: 64 KiB.  Each solve's tables are fresh
    # memory that the system zeroes when first touched, so a large first table costs easy deals the most.
    first_table_slots: int = 1 << 12
    stretch_slots: int = STRETCH_SLOTS  # a table doubles this many slots at a time (solver/search/memory.py)
    grow_table: bool = True  # False: a full table forgets half its lost marks instead of growing
    # The capacity test of each position (solver/kernels/capacity.py); 0 nodes: no test.
    capacity_nodes: int = 1 << 18  # abstract positions one test may search before it gives up
    capacity_first_slots: int = 1 << 12  # its cache of verdicts, which grows to 1/32 of the memory
    # Abstract positions the tests may search before the search has any (then one per real position).
    # 0: the thousands the tests would spend at once cost easy deals more than the search.
    capacity_head_start: int = 0
    # Beams (solver/search/beam.py): see beam_due().
    # Narrow probe beams before the schedule's: (depth-first positions before it, width); see beam_due().
    beam_probes: tuple[tuple[int, int], ...] = ((512, 5), (1 << 11, 10), (1 << 12, 20), (6144, 40), (1 << 13, 100))
    beam_first_after: int = 1 << 16  # depth-first positions before the first beam
    beam_first_width: int = 1000  # ... whose width then grows from beam to beam
    beam_growth: int = 4  # ... by this factor, as does the depth-first work between beams
    beam_branching: int = 64  # room for this many candidates per kept position
    beam_levels_per_card: int = 2  # a beam gives up after this many levels per card in play (wins need ~1.5)
    # The streamlined search (solver/search/streamline.py): slices of (depth-first positions searched
    # before it, its positions in all after it); see streamline_due().  Empty: none.
    streamline_slices: tuple[tuple[int, int], ...] = (
        (0, 1 << 10), (1 << 9, 1 << 11), (1 << 10, 1 << 12), (1 << 11, 1 << 13), (1 << 12, 1 << 14), (1 << 13, 1 << 15),
        (1 << 14, 1 << 16), (1 << 15, 1 << 17), (1 << 16, 1 << 18), (1 << 17, 1 << 19),
    )  # fmt: skip
    streamline_foundations: bool = True  # ... with every foundation move played at once (SAFE_ANY)
    streamline_run: int = 1 << 8  # positions of its first run before a restart, Luby's numbers of it later; 0: none
    streamline_noise: int = 6  # ... each restart in another random order, this far perturbed
    streamline_restarts_until: int = 1 << 15  # ... until it has searched this many; then one run in the first order
    streamline_memory: float = 1 / 64  # the share of the memory budget it holds at most (2 GiB: 2M positions)
    # Under PySolFC's rules, the game's strict rules first (solver/search/strict.py): the share of the time
    # and of the positions budget the strict search may take before PySolFC's own begins; 0: no strict probe.
    strict_share: float = 0.5
    # The searches beside the depth-first runs: the root's capacity test, then the walks.
    walks_after: int = 1 << 16  # depth-first positions before they begin
    walks_memory: float = 0.4  # ... the share of the memory budget they hold (2 GiB: room for 14M positions)
    root_test_share: float = 2 / 3  # the share of the time the root's test may take, until it ends
    root_test_first_slots: int = 1 << 16
    root_test_slice: int = 1 << 13  # abstract positions between two looks at the clock (~40 ms)
    walks_share: float = 0.5  # the share of the time the walks may take, until they end
    walk_first_slots: int = 1 << 16
    walk_chunk: int = 1 << 13  # positions between two looks at the clock
    walk_chunk_work: int = 1 << 13  # ... and abstract positions its capacity tests search (together ~50 ms)
    walk_capacity_nodes: int = 1 << 14  # abstract positions one of its capacity tests may search
    # The games walked before the real game (solver/kernels/suitblind.py): how many of the lowest and of
    # the highest ranks each names.  Cheap games first: most deals the walks decide are lost by the first.
    walk_games: tuple[tuple[int, int], ...] = ((0, 0), (5, 0), (0, 5))

    def __post_init__(self) -> None:
        if self.run_growth not in RUN_GROWTHS:
            raise ValueError(f"run_growth {self.run_growth!r}: one of {', '.join(RUN_GROWTHS)}")
        if not 0 <= self.strict_share < 1:  # PySolFC's own search must keep some of the budget
            raise ValueError(f"strict_share {self.strict_share}: from 0 to below 1")
        if self.streamline_noise < 1:  # its restarts perturb the order by 1 to streamline_noise
            raise ValueError(f"streamline_noise {self.streamline_noise}: at least 1")

    def run_cap(self, restarts: int) -> int:
        """New positions the run after ``restarts`` restarts may search before the next restart.

        Luby's schedule by default: many short runs in different move orders,
        with a long one now and then.  Short runs cost a proof little, since
        every run keeps what earlier runs proved lost."""
        if self.run_growth == "double":
            return self.run_nodes << restarts
        if self.run_growth == "fixed":
            return self.run_nodes
        return self.run_nodes * luby(restarts + 1)

    def streamline_due(self, stage: int) -> tuple[int, int] | None:
        """The streamlined search's slice number ``stage`` (from 0): the depth-first positions searched
        before it, and the positions it may have searched in all after it; None past the last.

        The slices give it about twice the depth-first runs' positions, from the first, to 2^19
        (measured: results/tuning.md)."""
        return self.streamline_slices[stage] if stage < len(self.streamline_slices) else None

    def beam_due(self, beams: int) -> int:
        """Depth-first positions searched before beam number ``beams`` (from 0) runs.

        First the probes, narrow beams that win the deals any beam wins at once for a fraction of the
        cost of the schedule's first, on a ladder of widths (results/tuning.md has the measurements).

        Then beam k of the schedule is ``beam_first_width * beam_growth**k`` wide and comes after
        ``beam_first_after * beam_growth**k`` depth-first positions (growth 4): both grow at the same
        pace and the beams take about 40% of the time.  Wide beams are what find
        the last wins (a 64,000-wide beam won 5 of 25 deals the rest left), and a
        beam 4 times wider rather than twice costs fewer, larger steps.  The first
        beam waits until the depth-first search has had a fair chance, so the many
        deals it decides in milliseconds never pay for one."""
        probes = self._probes()
        if beams < len(probes):
            return probes[beams][0]
        return self.beam_first_after * self.beam_growth ** (beams - len(probes))

    def beam_width(self, beams: int) -> int:
        """The width of beam number ``beams`` (from 0), memory allowing."""
        probes = self._probes()
        if beams < len(probes):
            return probes[beams][1]
        return self.beam_first_width * self.beam_growth ** (beams - len(probes))

    def _probes(self) -> tuple[tuple[int, int], ...]:
        """The probes that come before the schedule's first beam (not in the tests' small schedules)."""
        return tuple((after, width) for after, width in self.beam_probes if after < self.beam_first_after)


def luby(i: int) -> int:
    """Term i (from 1) of Luby's sequence: 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, ..."""
    while True:
        k = i.bit_length()
        if i == (1 << k) - 1:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1
