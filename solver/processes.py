"""Child processes that never outlive the process that started them, and the pool of them a batch uses."""

from __future__ import annotations

import ctypes
import multiprocessing as mp
import os
import signal
from collections.abc import Callable, Iterator, Sequence
from multiprocessing.connection import Connection, wait
from multiprocessing.pool import ExceptionWithTraceback
from typing import Any

STOPS = {signal.SIGINT, signal.SIGTERM}
WAKE_SECONDS = 1.0  # the longest the batch process sleeps between looks at a stop (see map_chunks)


class WorkerDied(Exception):
    """A worker process ended without the result of its chunk (killed by the system, say, for memory)."""


def die_with_parent() -> None:
    """Ask Linux to kill this process when its parent dies, however it dies (``kill -9`` included); on
    other systems, nothing.  Call it in the child, first thing (a batch worker, a compiling process)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not Linux: nothing to ask
        return
    if os.getppid() == 1:  # the parent died before the request: go now
        os._exit(1)


def map_chunks(
    function: Callable[[Any], Any], chunks: Sequence[Sequence[Any]], jobs: int, initializer: Callable[[], None]
) -> Iterator[list]:
    """``[function(item) for item in chunk]`` for each chunk, as each is done, by ``jobs`` worker processes
    forked from this one (each runs ``initializer`` first, SIGINT and SIGTERM held off until then).  An
    exception in a worker is raised here, with the worker's traceback as its cause; a worker that dies,
    as :class:`WorkerDied`.

    However the generator ends (done, an exception, Ctrl-C, closed early), its workers are killed
    (SIGKILL) and reaped before it returns, at once, whatever they were doing.  This is why it is not
    ``multiprocessing.Pool``: there, a stop goes through ``Pool.terminate``, which takes locks that its
    workers share (the task queue's read lock, which an idle worker holds while it waits for a task; the
    result queue's write lock) and joins threads that wait on them.  Here each worker has a pipe of its
    own, the batch process hands out the next chunk when a worker sends its results back, and nothing
    is shared that a killed worker could leave locked."""
    context = mp.get_context("fork")
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, [])  # this thread's blocked signals as they are
    workers: dict[Connection, mp.process.BaseProcess] = {}
    pending = iter(chunks)
    try:
        for _ in range(min(jobs, len(chunks))):
            mine, theirs = context.Pipe()
            # The worker closes the batch process's ends of every pipe so far, its own included.
            worker = context.Process(
                target=_work, args=(function, initializer, theirs, [*workers, mine], mask), daemon=True
            )
            workers[mine] = worker
            # Ctrl-C and SIGTERM wait (pending) until the worker's initializer has said what they do there: a
            # Ctrl-C just as a worker starts would otherwise end it in a traceback.  Here they are let in at once.
            signal.pthread_sigmask(signal.SIG_BLOCK, STOPS)
            try:
                worker.start()
            finally:
                signal.pthread_sigmask(signal.SIG_SETMASK, mask)
            theirs.close()  # the worker's end lives in the worker alone: its death reads here as the end of the pipe
        busy: list[Connection] = []
        for conn in workers:
            if _hand_out(conn, pending):
                busy.append(conn)
        while busy:
            # A Python signal handler (Ctrl-C's KeyboardInterrupt) runs in the main thread only; the kernel
            # wakes this wait for a signal sent to the process, but not for one that another thread (the
            # progress bar's) happened to take: wake now and then to run it all the same.
            for conn in wait(busy, timeout=WAKE_SECONDS):
                try:
                    done, value = conn.recv()
                except (EOFError, OSError):
                    worker = workers[conn]
                    worker.join(WAKE_SECONDS)
                    raise WorkerDied(f"a worker process died ({_exit_text(worker.exitcode)})") from None
                if not done:
                    raise value
                if not _hand_out(conn, pending):  # before the results are taken: the worker goes on at once
                    busy.remove(conn)
                yield value
    finally:
        for worker in workers.values():  # kill them all first: a second Ctrl-C in the joins leaves none running
            if worker.pid is not None:
                worker.kill()
        for worker in workers.values():
            if worker.pid is not None:
                worker.join()
        for conn in workers:
            conn.close()


def _hand_out(conn: Connection, pending: Iterator[Sequence[Any]]) -> bool:
    """Send the next chunk to the worker at ``conn``; False if there is none left."""
    chunk = next(pending, None)
    if chunk is not None:
        conn.send(chunk)
    return chunk is not None


def _exit_text(code: int | None) -> str:
    if code is None:
        return "still running"
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit status {code}"


def _work(
    function: Callable[[Any], Any], initializer: Callable[[], None], conn: Connection, others: list, mask: set
) -> None:
    """A worker: apply ``function`` to each chunk that comes through ``conn``, send back the results
    (True, results) or the first exception (False, exception); end when the batch process closes its end."""
    initializer()
    signal.pthread_sigmask(signal.SIG_SETMASK, mask)
    for other in others:
        other.close()
    while True:
        try:
            chunk = conn.recv()
        except EOFError:
            return
        try:
            reply = (True, [function(item) for item in chunk])
        except Exception as err:
            reply = (False, ExceptionWithTraceback(err, err.__traceback__))
        try:
            conn.send(reply)
        except Exception as err:  # a result or an exception that does not pickle: say so, not die silently
            conn.send((False, RuntimeError(f"a worker's reply could not be sent back: {err!r}")))
