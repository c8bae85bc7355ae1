"""Batches of deals: parallel, resumable, one line per decided deal (:mod:`solver.records`).

Each record is appended (and flushed) as soon as its deal is decided, so a
killed run loses at most the deals in flight; a rerun with the same output
skips the deals already recorded, mends a torn last line, and appends the
rest.  A lock file keeps two batches from writing to one output.
"""

from __future__ import annotations

import fcntl
import gc
import logging
import signal
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import CancelledError
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .game.deals import MAX_DEAL, deal, pysolfc_layout
from .game.rules import Rules, get_rules
from .processes import WorkerDied, die_with_parent, map_chunks
from .records import (
    TABLE,
    BatchError,
    Identity,
    Ledger,
    encode,
    format_of,
    header,
    latest_records,
    mend,
    read_ledger,
    read_records,
    tally_of,
)
from .search import Budget, Schedule, solve, warm_up
from .stats import WinRate
from .words import LOST, PYSOLFC_LAYOUT, RULES_LAYOUT, UNKNOWN, VERDICTS, WON

__all__ = ["BatchError", "BatchOutcome", "latest_records", "parse_deals", "read_records", "run_batch", "solve_record"]

MAX_BATCH = 10_000_000  # deals in one batch
CONNECT_SECONDS = 5  # how long to try to reach a Dask scheduler


def parse_deals(text: str) -> list[int]:
    """``1-100``, ``7``, or ``1-10,50-60`` -> deal numbers, in order, without repeats."""
    numbers: dict[int, None] = {}
    for part in text.split(","):
        first, dash, last = part.strip().partition("-")
        try:
            low = int(first)
            high = int(last) if dash else low
        except ValueError:
            raise BatchError(f"deal range {part.strip()!r}: write FIRST-LAST, e.g. 1-1000") from None
        if low < 1 or high >= MAX_DEAL:
            raise BatchError(f"deal range {part.strip()!r}: deal numbers run from 1 to {MAX_DEAL - 1}")
        if high < low:
            raise BatchError(f"deal range {part.strip()!r} is reversed")
        if high - low + 1 + len(numbers) > MAX_BATCH:
            raise BatchError(f"deal range {text!r} has more than {MAX_BATCH:,} deals")
        numbers.update(dict.fromkeys(range(low, high + 1)))
    return list(numbers)


def solve_record(
    rules: Rules | str,
    number: int,
    budget: Budget,
    schedule: Schedule | None = None,
    layout: str = RULES_LAYOUT,
    shorten: bool = False,
) -> dict:
    """Solve one numbered deal of ``rules`` (or a known game's name); the record a batch stores for it.
    ``layout``: ``PYSOLFC_LAYOUT`` solves PySolFC's own layout, as ``solve --pysolfc-layout`` does.
    ``shorten``: shorten a winning line before recording its length ("moves"), as ``solve`` does; a
    batch need not, since every line found is replayed all the same, and shortening took 80% of an
    easy deal's time (results/profile-batch-before.txt)."""
    rules = get_rules(rules) if isinstance(rules, str) else rules
    board = pysolfc_layout(rules, number).validate(rules) if layout == PYSOLFC_LAYOUT else deal(rules, number)
    result = solve(board, rules, budget, schedule=schedule, shorten_moves=shorten)
    thoughtful = {"thoughtful": True} if rules.face_down_rows else {}  # face-down cards seen by the solver
    pysolfc = {"layout": PYSOLFC_LAYOUT} if layout == PYSOLFC_LAYOUT else {}  # (records of old have no layout)
    fields = {"game": rules.name, "deal": number, **thoughtful, **pysolfc, **result.record(), "shortened": shorten}
    return {**fields, "budget": _budget_fields(budget), "rules": rules.digest()}


def _budget_fields(budget: Budget) -> list:
    """A record's budget: seconds, bytes, positions (None: no limit)."""
    return [budget.seconds, budget.memory, budget.positions]


def _larger(budget: Budget, recorded: tuple | None) -> bool:
    """Whether ``budget`` allows more than the ``recorded`` one in some way (a record of old has none)."""
    if recorded is None:
        return True
    return any(
        old is not None and (new is None or new > old)
        for new, old in zip(_budget_fields(budget), recorded, strict=True)
    )


@contextmanager
def exclusive(path: Path) -> Iterator[None]:
    """Hold ``path``.lock for the batch; refuse if another batch holds it."""
    lock_path = path.with_name(path.name + ".lock")
    with open(lock_path, "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise BatchError(f"{path} is in use by another batch") from None
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _solve_task(task: tuple[Rules, int, Budget, str, bool]) -> dict:
    rules, number, budget, layout, shorten = task
    try:
        return solve_record(rules, number, budget, layout=layout, shorten=shorten)
    except StopIteration as err:  # re-raised in the batch process, it would end the pool's iterator silently
        raise RuntimeError(f"deal {task[1]}: {err!r}") from None


def _worker_init() -> None:
    """A worker's initializer.  Ctrl-C is the batch process's to handle (it stops the pool): a worker
    that took it too would die in a traceback mid-deal.  And on Linux, ask to be killed when the batch
    process dies, however it dies: a worker left running after a ``kill -9`` would hold the output's
    lock (inherited at the fork) until its deal ended, and the rerun that should resume would be refused."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a worker sent SIGTERM goes, whatever the parent set
    die_with_parent()


def _local_results(tasks: list[tuple[Rules, int, Budget, str, bool]], jobs: int) -> Iterator[dict]:
    # Compile or load the kernels before any worker is forked, so none does it again.
    warm_up()
    if jobs <= 1:
        yield from map(_solve_task, tasks)
        return
    # Deals go out in chunks of up to 16 (fewer in a short batch, to keep the workers evenly loaded): one
    # message each way per deal cost an easy batch 10-15% of its throughput on 2 cores.  A stopped batch
    # loses only the chunks under way, which a rerun solves again.
    # A stop (Ctrl-C, SIGTERM, an error here) kills the workers and reaps them at once: see map_chunks.
    chunk = max(1, min(16, len(tasks) // (8 * jobs)))
    chunks = [tasks[i : i + chunk] for i in range(0, len(tasks), chunk)]
    try:
        for results in map_chunks(_solve_task, chunks, jobs, _worker_init):
            yield from results
    except WorkerDied as err:
        raise BatchError(f"{err}; rerun to resume") from None


def _dask_results(tasks: list[tuple[Rules, int, Budget, str, bool]], scheduler: str) -> Iterator[dict]:
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise BatchError("--scheduler needs Dask: pip install 'bakers-solver[dask]'") from None
    # A Client left half built by an earlier failed connection, if the garbage collector finalizes it inside
    # the next Client's start, deadlocks on distributed's loop-runner lock (seen: the test suite hung in
    # Client.__del__ -> LoopRunner.stop under Client.__init__).  Finalize such leftovers first.
    gc.collect()
    try:
        client = Client(scheduler, timeout=CONNECT_SECONDS)
    except (ValueError, OSError) as err:  # a malformed address; no scheduler there
        raise BatchError(f"--scheduler {scheduler}: {err}") from None
    # The client logs each failed reconnection with a traceback; the batch says it in one line instead.
    quiet = _quiet_logger("distributed.client")
    with quiet, client:  # quiet until the client has closed too
        try:
            client.run(warm_up)
            futures = [client.submit(_solve_task, task, pure=False) for task in tasks]
            for future in as_completed(futures):
                yield future.result()
        except (OSError, TimeoutError) as err:  # the scheduler or the connection to it is gone
            raise BatchError(f"lost the Dask scheduler {scheduler} ({err}); rerun to resume") from None
        except CancelledError:  # the client gave up reconnecting: it cancels every future
            raise BatchError(f"lost the Dask scheduler {scheduler}; rerun to resume") from None


@contextmanager
def _quiet_logger(name: str) -> Iterator[None]:
    logger = logging.getLogger(name)
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        logger.setLevel(level)


def check_output(output: Path) -> None:
    """Refuse an output that is not, or cannot become, a regular file in an existing folder."""
    if output.exists() and not output.is_file():  # a device or a pipe would be read forever, or hang
        raise BatchError(f"{output} is not a regular file: records go to a file, e.g. results.jsonl")
    if not output.parent.is_dir():
        raise BatchError(f"{output}: there is no folder {output.parent}")


@dataclass(frozen=True)
class BatchOutcome:
    """What a batch decided of the deals asked for: the tally, and each deal's verdict and solve time
    (its last record's) in arrays sorted by deal; :meth:`records` reads the records themselves."""

    numbers: list[int]
    tally: WinRate
    deals: np.ndarray
    verdicts: np.ndarray  # codes: indexes into solver.words.VERDICTS
    seconds: np.ndarray
    output: Path
    game: str

    def records(self, verdicts: tuple[str, ...] | None = None) -> list[dict]:
        """The last record of each deal asked for, in the order asked; only those of ``verdicts`` if given
        (it reads the whole output, but holds only those)."""
        latest = latest_records(self.output, self.game, set(self.numbers), verdicts)
        return [latest[n] for n in self.numbers if n in latest]


def outcome_of(ledger: Ledger, numbers: list[int], output: Path, game: str) -> BatchOutcome:
    """The outcome of the deals ``numbers`` as ``ledger`` records them (the deals it lacks are left out)."""
    latest = ledger.latest(game)
    wanted = np.isin(latest["deal"], np.asarray(numbers, np.int64))
    deals, verdicts, seconds = latest["deal"][wanted], latest["verdict"][wanted], latest["seconds"][wanted]
    return BatchOutcome(numbers, tally_of(verdicts), deals, verdicts, seconds, Path(output), game)


def read_outcome(output: Path, rules: Rules, numbers: list[int], layout: str = RULES_LAYOUT) -> BatchOutcome:
    """The outcome of ``numbers`` as ``output`` records them, e.g. after a stopped batch; BatchError if it
    holds records of another batch (another game, other rules, the other layout)."""
    ledger = read_ledger(Path(output))
    _check_identity(Path(output), ledger, _identity_of(rules, layout))
    return outcome_of(ledger, numbers, output, rules.name)


def _identity_of(rules: Rules, layout: str) -> Identity:
    """What every record of a batch of ``rules`` in ``layout`` shares."""
    return Identity(rules.name, rules.digest(), layout, bool(rules.face_down_rows))


def _check_identity(output: Path, ledger: Ledger, mine: Identity) -> None:
    """Refuse to add records of another game, other rules or the other layout to ``output``."""
    games = {i.game for i in ledger.identities} - {mine.game}
    if games:
        raise BatchError(
            f"{output} holds records of {', '.join(sorted(games))}, not of {mine.game}: give another output"
        )
    if any(i.rules not in (None, mine.rules) for i in ledger.identities):  # records of old have no digest
        raise BatchError(
            f"{output} holds records of {mine.game} under other rules (a changed rules file?): give another output"
        )
    if any(i.layout != mine.layout for i in ledger.identities):
        raise BatchError(f"{output} holds records of the other layout (--pysolfc-layout or not): give another output")


def run_batch(
    rules: Rules,
    numbers: Iterable[int],
    budget: Budget,
    output: Path,
    jobs: int = 1,
    scheduler: str | None = None,
    on_record: Callable[[dict, WinRate], None] | None = None,
    on_start: Callable[[WinRate, int], None] | None = None,
    layout: str = RULES_LAYOUT,
    shorten: bool = False,
) -> BatchOutcome:
    """Solve every deal in ``numbers`` not yet recorded in ``output``; returns what is recorded of them.

    ``output`` is written as JSON lines, or as a compact table if its name ends in ``.tsv``
    (:mod:`solver.records`).  A deal recorded `unknown` under a smaller budget than ``budget`` (in time,
    memory or positions) is solved again.  An output holding another game's records is refused.
    ``on_start`` is told the tally of what was recorded already and how many unknown deals are retried;
    ``on_record``, each new record with the tally so far.  ``layout``: ``PYSOLFC_LAYOUT`` solves
    PySolFC's own layouts; a file of the other layout's records is refused.  ``shorten``: as in
    :func:`solve_record`."""
    output = Path(output)
    check_output(output)
    numbers = list(numbers)
    fmt = format_of(output)
    mine = _identity_of(rules, layout)
    with exclusive(output):
        ledger = read_ledger(output)
        _check_identity(output, ledger, mine)
        mend(output)  # a torn last line, once the whole ones have read as this batch's records
        latest = ledger.latest(rules.name)
        wanted = np.isin(latest["deal"], np.asarray(numbers, np.int64))
        larger = np.array([_larger(budget, b) for b in ledger.budgets] or [False])
        retried = wanted & (latest["verdict"] == VERDICTS.index(UNKNOWN)) & larger[latest["budget"]]
        known = set(latest["deal"][~retried].tolist())
        tasks = [(rules, n, budget, layout, shorten) for n in numbers if n not in known]
        tally = tally_of(latest["verdict"][wanted & ~retried])
        if on_start:
            on_start(tally, int(retried.sum()))
        results = _dask_results(tasks, scheduler) if scheduler else _local_results(tasks, jobs)
        with open(output, "a") as out, _closing(results):
            if fmt == TABLE and out.tell() == 0:
                out.write(header(mine))
            for record in results:
                out.write(encode(record, fmt))
                out.flush()  # a killed process loses nothing flushed; fsync would only guard a power cut
                ledger.add(mine, record["deal"], record["verdict"], record["seconds"], record["budget"])
                known.add(record["deal"])
                tally = summarize([record], start=tally)
                if on_record:
                    on_record(record, tally)
    missing = [n for n in numbers if n not in known]
    if missing:  # the workers' results ended early: never a silent short batch
        raise BatchError(f"the batch stopped before deal {missing[0]} ({len(missing)} not run); rerun to resume")
    return outcome_of(ledger, numbers, output, rules.name)


@contextmanager
def _closing(results: Iterator[dict]) -> Iterator[None]:
    """Close the generator ``results`` on leaving: a stop that lands in the batch's loop rather than in the
    generator (Ctrl-C while a record is written) ends its workers then too, not whenever the garbage
    collector gets to it."""
    try:
        yield
    finally:
        close = getattr(results, "close", None)  # (any iterator will do, a test's list)
        if close is not None:
            close()


def summarize(records: Iterable[dict], start: WinRate | None = None) -> WinRate:
    """Count the verdicts of ``records`` (added to ``start``)."""
    won, lost, unknown = (start.won, start.lost, start.unknown) if start else (0, 0, 0)
    for record in records:
        won += record["verdict"] == WON
        lost += record["verdict"] == LOST
        unknown += record["verdict"] == UNKNOWN
    return WinRate(won, lost, unknown)
