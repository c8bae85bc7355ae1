"""What each command is asked to do, checked before any work starts: one frozen request per command.

Every check of the command line lives here, in the order the commands have always made them, so that a
bad argument ends in one line and exit status 2 (:class:`InputError`), never a traceback.  Plain Python:
the solver (and numba, which takes a good part of a second to load) is imported only by the few checks
that need it -- the layered search's premises, a batch's deal range and output.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING

import click

from .game.board import Board, BoardError, parse_board
from .game.deals import DealNumberError, deal
from .game.deals import pysolfc_layout as pysolfc_layout_of
from .game.premises import LAYERS_PREMISES, unsupported
from .game.rules import (
    Rules,
    UnknownGameError,
    UnsupportedPysolfcError,
    get_rules,
    with_pysolfc,
    with_worrying_back,
)
from .game.variants import RulesFileError, load_rules_file
from .words import PYSOLFC_LAYOUT, RULES_LAYOUT

if TYPE_CHECKING:
    from .search import Budget

# The defaults of the options, shared by the command line and the requests made without it.
TIMEOUT = 60.0
MEMORY = "2G"
CHECKPOINT_EVERY = 600.0


class InputError(click.ClickException):
    """Bad input: a clear message and exit status 2, never a traceback."""

    exit_code = 2


@contextmanager
def refused(*errors: type[Exception]) -> Iterator[None]:
    """Any of ``errors`` raised within, as bad input with the same message."""
    try:
        yield
    except errors as err:
        raise InputError(str(err)) from None


def parse_memory(text: str) -> int:
    """``2G``, ``512M``, ``1.5GiB``, ``300000000`` -> bytes."""
    m = re.fullmatch(r"\s*([0-9]*\.?[0-9]+)\s*([kKmMgGtT]?)(i?[bB])?\s*", text)
    if not m:
        raise InputError(f"--memory {text!r}: give bytes or a size like 512M or 2G")
    scale = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}[m.group(2).lower()]
    value = int(float(m.group(1)) * scale)
    if value < 1 << 16:
        raise InputError(f"--memory {text!r}: at least 64K is needed")
    machine = _machine_memory()
    if machine and value > machine:
        raise InputError(f"--memory {text!r}: this machine has {machine / 2**30:.1f} GiB")
    return value


def _machine_memory() -> int:
    """Bytes of memory the machine has (0 where the system does not say)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError):
        return 0


def check_timeout(timeout: float) -> None:
    if not (math.isfinite(timeout) and timeout > 0):
        raise InputError(f"--timeout {timeout}: give a positive number of seconds")


def check_max_states(max_states: int | None) -> None:
    if max_states is not None and max_states <= 0:
        raise InputError("--max-states must be positive")


def load_rules(game: str, worrying_back: bool = False, pysolfc: bool = False) -> Rules:
    """A known game's rules, or a variant's from a rules file (``*.toml``); PySolFC's, with ``pysolfc``."""
    if pysolfc and worrying_back:
        raise InputError(
            "give at most one of --pysolfc and --worrying-back (PySolFC's rules say where cards come back)"
        )
    with refused(UnknownGameError, RulesFileError, UnsupportedPysolfcError):
        rules = load_rules_file(game) if game.lower().endswith(".toml") else get_rules(game)
        if pysolfc:
            rules = with_pysolfc(rules)
    return with_worrying_back(rules) if worrying_back else rules


@dataclass(frozen=True)
class Limits:
    """A deal's budget as asked: seconds, bytes of memory, and positions (None: as many as fit)."""

    seconds: float
    memory: int
    positions: int | None

    def budget(self) -> Budget:
        from .search import Budget  # here, not above: it loads numba

        return Budget(seconds=self.seconds, memory=self.memory, positions=self.positions)


@dataclass(frozen=True)
class SolveRequest:
    """``bakers solve``: one deal, its rules and its budget, how to search it and what to write."""

    rules: Rules
    board: Board
    source: str  # where the board comes from, in words: "PySolFC deal 5", "board deal.txt"
    number: int | None  # the deal's number; None for a board file
    pysolfc_layout: bool  # the deal as PySolFC lays it out, not as the rules do
    limits: Limits
    as_json: bool
    one_run: bool
    layered: bool
    checkpoint: Path | None  # the file a one-run or layered search keeps its state in
    checkpoint_every: float
    report_every: float | None  # seconds between progress lines; None: no progress lines
    html: str | None  # the replay page's file

    @property
    def layout(self) -> str:
        return PYSOLFC_LAYOUT if self.pysolfc_layout else RULES_LAYOUT

    @classmethod
    def from_options(
        cls,
        *,
        game: str,
        number: int | None = None,
        board_file: IO[str] | None = None,
        timeout: float = TIMEOUT,
        memory: str = MEMORY,
        max_states: int | None = None,
        as_json: bool = False,
        one_run: bool = False,
        layered: bool = False,
        checkpoint_file: str | None = None,
        checkpoint_every: float = CHECKPOINT_EVERY,
        report_every: float | None = None,
        html_file: str | None = None,
        pysolfc_layout: bool = False,
        worrying_back: bool = False,
        pysolfc: bool = False,
    ) -> SolveRequest:
        """The request that ``bakers solve``'s options make; InputError at the first one that is wrong."""
        rules = load_rules(game, worrying_back, pysolfc)
        pysolfc_layout = pysolfc_layout or (pysolfc and number is not None)  # PySolFC's rules, on its layout
        if (number is None) == (board_file is None):
            raise InputError("give exactly one of --deal NUMBER and --board FILE")
        check_timeout(timeout)
        check_max_states(max_states)
        if report_every is not None and not report_every > 0:
            raise InputError("--report-every must be a positive number of seconds")
        if pysolfc_layout and number is None:
            raise InputError("--pysolfc-layout needs --deal NUMBER")
        _check_search_choice(one_run, layered, checkpoint_file, checkpoint_every)
        board, source = _read_board(rules, number, board_file, pysolfc_layout)
        _check_searchable(rules, board, layered)
        return cls(
            rules=rules,
            board=board,
            source=source,
            number=number,
            pysolfc_layout=pysolfc_layout,
            limits=Limits(timeout, parse_memory(memory), max_states),
            as_json=as_json,
            one_run=one_run,
            layered=layered,
            checkpoint=None if checkpoint_file is None else Path(checkpoint_file),
            checkpoint_every=checkpoint_every,
            report_every=report_every,
            html=html_file,
        )


def _check_search_choice(one_run: bool, layered: bool, checkpoint_file: str | None, checkpoint_every: float) -> None:
    if one_run and layered:
        raise InputError("give at most one of --one-run and --layered")
    if checkpoint_file is not None and not (one_run or layered):
        raise InputError(
            "--checkpoint needs --one-run or --layered: the default schedule's restarts, beams and walks keep "
            "state that a checkpoint does not hold"
        )
    if not checkpoint_every > 0:
        raise InputError("--checkpoint-every must be a positive number of seconds")


def _read_board(
    rules: Rules, number: int | None, board_file: IO[str] | None, pysolfc_layout: bool
) -> tuple[Board, str]:
    """The board asked for (a deal's number, or a board file), and where it comes from in words."""
    try:
        with refused(BoardError, DealNumberError):
            if pysolfc_layout:
                board = pysolfc_layout_of(rules, number).validate(rules)
                return board, f"PySolFC deal {number}, laid out exactly as PySolFC deals it"
            if number is not None:
                return deal(rules, number), f"PySolFC deal {number}" if rules.ranks == 13 else f"deal {number}"
            return parse_board(board_file.read(), rules).validate(rules), f"board {board_file.name}"
    except UnicodeDecodeError:
        raise InputError(f"board {board_file.name}: not a text file (UTF-8)") from None


def _check_searchable(rules: Rules, board: Board, layered: bool) -> None:
    problem = unsupported(rules)
    if problem:
        raise InputError(f"{rules.title}: {problem}")
    if layered:
        from .search.layered import can_search  # here, not above: it loads numba

        if not can_search(rules, board):
            raise InputError(f"{rules.title}: --layered: {LAYERS_PREMISES}")


@dataclass(frozen=True)
class WinrateRequest:
    """``bakers winrate``: a batch of deals, their rules and each one's budget, where to record them."""

    rules: Rules
    numbers: list[int]
    deals_text: str  # the deals as asked: "1-1000", "1-10,50-60"
    output: Path  # the records
    limits: Limits  # each deal's
    workers: int
    scheduler: str | None  # a Dask scheduler's address; None: worker processes here
    progress: bool  # a progress bar
    html: str | None  # the report page's file
    pysolfc_layout: bool  # each deal as PySolFC lays it out, not as the rules do
    pysolfc: bool  # PySolFC's rules (and so its layouts)
    shorten: bool  # each winning line shortened before its length is recorded

    @property
    def layout(self) -> str:
        return PYSOLFC_LAYOUT if self.pysolfc_layout else RULES_LAYOUT

    @classmethod
    def from_options(
        cls,
        *,
        game: str,
        deal_range: str | None = None,
        count: int | None = None,
        jobs: int | None = None,
        output: str | None = None,
        timeout: float = TIMEOUT,
        memory: str = MEMORY,
        max_states: int | None = None,
        scheduler: str | None = None,
        progress: bool = True,
        html_file: str | None = None,
        pysolfc_layout: bool = False,
        shorten: bool = False,
        worrying_back: bool = False,
        pysolfc: bool = False,
    ) -> WinrateRequest:
        """The request that ``bakers winrate``'s options make; InputError at the first one that is wrong."""
        rules = load_rules(game, worrying_back, pysolfc)
        if (deal_range is None) == (count is None):
            raise InputError("give exactly one of --deals RANGE and --count N")
        if count is not None and count < 1:
            raise InputError("--count must be at least 1")
        check_timeout(timeout)
        check_max_states(max_states)
        if jobs is not None and jobs < 1:
            raise InputError("--jobs must be at least 1")
        from .batch import BatchError, check_output, parse_deals  # here, not above: it loads numba

        deals_text = deal_range if deal_range is not None else f"1-{count}"
        with refused(BatchError):
            numbers = parse_deals(deals_text)
        limits = Limits(timeout, parse_memory(memory), max_states)
        path = Path(output or f"winrate-{rules.name}.jsonl")
        with refused(BatchError):
            check_output(path)  # before compiling and drawing a bar
        return cls(
            rules=rules,
            numbers=numbers,
            deals_text=deals_text,
            output=path,
            limits=limits,
            workers=jobs or os.cpu_count() or 1,
            scheduler=scheduler,
            progress=progress,
            html=html_file,
            pysolfc_layout=pysolfc_layout or pysolfc,  # PySolFC's rules, on its layouts
            pysolfc=pysolfc,
            shorten=shorten,
        )
