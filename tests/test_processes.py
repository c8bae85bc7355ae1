"""The pool of worker processes a batch uses (solver/processes.py): every result once, errors and deaths
raised in the batch process, and no worker left behind, whatever ends the pool."""

import os
import signal
import threading
import time
from pathlib import Path

import pytest

from solver import batch
from solver.batch import BatchError, run_batch
from solver.game.rules import GAMES
from solver.processes import WorkerDied, map_chunks
from solver.search import Budget

BD = GAMES["bakers-dozen"]
# A states budget (not a clock) keeps every verdict deterministic.
BUDGET = Budget(seconds=None, positions=20_000)


def _gone(pid: int) -> bool:
    """Whether process ``pid`` is gone and reaped (a zombie's entry stays until its parent reaps it)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def _children() -> set[int]:
    """The processes this thread has started and not reaped (Linux)."""
    children = Path(f"/proc/{os.getpid()}/task/{threading.get_native_id()}/children")
    return {int(pid) for pid in children.read_text().split()}


def test_the_pool_of_a_batch_gives_every_result_once_and_leaves_no_worker():
    chunks = [list(range(i, i + 3)) for i in range(0, 30, 3)]
    before = _children()
    results = map_chunks(lambda n: n * n, chunks, 2, lambda: None)
    first = next(results)
    workers = _children() - before
    assert len(workers) == 2
    got = sorted([*first, *(n for chunk in results for n in chunk)])
    assert got == [n * n for n in range(30)]
    assert all(_gone(pid) for pid in workers)


def test_an_error_in_a_worker_is_raised_in_the_batch_process_and_its_workers_go():
    def fails(n):
        if n == 7:
            raise ValueError(f"deal {n} is bad")
        return n

    before = _children()
    with pytest.raises(ValueError, match="deal 7 is bad"):
        list(map_chunks(fails, [[n] for n in range(10)], 2, lambda: None))
    assert _children() <= before


def test_a_worker_that_dies_is_an_error_not_a_wait_for_ever(tmp_path, monkeypatch):
    def dies(task):
        os.kill(os.getpid(), signal.SIGKILL)  # as the system's out-of-memory killer does

    before = _children()
    with pytest.raises(WorkerDied, match="killed by SIGKILL"):
        list(map_chunks(dies, [[1], [2], [3]], 2, lambda: None))
    assert _children() <= before
    monkeypatch.setattr(batch, "_solve_task", dies)
    with pytest.raises(BatchError, match="a worker process died .*rerun to resume"):
        run_batch(BD, range(1, 5), BUDGET, tmp_path / "died.jsonl", jobs=2)


def test_a_pool_closed_early_kills_its_busy_workers_at_once():
    def slow(seconds):
        time.sleep(seconds)
        return seconds

    before = _children()
    results = map_chunks(slow, [[0], [600], [600]], 2, lambda: None)
    assert next(results) == [0]  # both workers are now in a deal of ten minutes
    workers = _children() - before
    began = time.perf_counter()
    results.close()
    assert time.perf_counter() - began < 2 and all(_gone(pid) for pid in workers)


def test_a_ctrl_c_as_a_worker_starts_waits_for_its_initializer():
    """Ctrl-C reaches the workers too (the whole foreground group); one that came before a worker's
    initializer had it ignored would end that worker in a traceback.  Held off until then, it is ignored."""

    def initializer():
        os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C, just after the fork
        batch._worker_init()

    mask = signal.pthread_sigmask(signal.SIG_BLOCK, [])
    got = list(map_chunks(lambda n: (n, sorted(signal.pthread_sigmask(signal.SIG_BLOCK, []))), [[1]], 1, initializer))
    assert got == [[(1, sorted(mask))]]  # and the worker's mask is this process's again
    assert signal.pthread_sigmask(signal.SIG_BLOCK, []) == mask
