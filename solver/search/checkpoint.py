"""Long searches that survive a stop: a one-run or layered search written to a file, and read back.

A deal that needs hours outlives the process that searches it: a laptop's
lid, a reboot, Ctrl-C.  With a :class:`Checkpoint`, ``solve(one_run=True)``
writes its whole state -- the table with every lost mark, the stacks, the
counters, the capacity test's cache, where it stood -- every so often and
when it is asked to stop, and a later solve given the same file goes on
from there.  ``solve(layered=True)`` does the same with its layer, the
children waiting for later layers and its counters; the parent words of
the layers it has finished, which trace a win back, are kept in the folder
FILE.layers beside the file (each written once, when its layer is done).
The search is deterministic between its slices, and a checkpoint is taken
only between slices, so a resumed search meets the same positions in the
same order as one that was never stopped, and reaches the same verdict
after the same number of positions (the tests check that, with stops at
many points, SIGKILL among them).

A checkpoint is written safely: to ``FILE.tmp``, flushed to the disk, then
renamed over ``FILE``, so a crash while writing leaves the previous one.
It carries what it was made from (the rules' digest, the board, the version
of the kernels, the memory budget, the search); another search's file is
refused with one line.  It takes as much disk as the search takes memory
(the table, up to the memory budget, and the stacks); a write that the disk
cannot hold is refused with one line, and the last checkpoint stays.

The default schedule is not saved: its restarts, beams and walks keep
state that a checkpoint does not hold, and ``solve`` refuses the
combination.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numba
import numpy as np

from .result import Budget
from .schedule import Schedule

FORMAT = 1  # the file's layout; a file of another is refused


class CheckpointError(ValueError):
    """A checkpoint that cannot be used or written, said in one line."""


class SearchStopped(Exception):
    """The search was asked to stop and wrote its checkpoint."""

    def __init__(self, path: Path, positions: int):
        super().__init__(f"stopped after {positions:,} positions; checkpoint {path}")
        self.path, self.positions = path, positions


@dataclass
class Checkpoint:
    """Where a search keeps its state, and how often it writes it.

    ``every``: seconds between writes while searching (the search also writes when it stops undecided, and
    when ``stop_requested`` returns True, after which it raises :class:`SearchStopped`)."""

    path: Path
    every: float = 600.0
    stop_requested: Callable[[], bool] = field(default=lambda: False)
    written: int = 0  # checkpoints written by this process
    resumed_from: int = 0  # positions the search had searched when this process took it over

    def __post_init__(self) -> None:
        self.path = Path(self.path)
        if not self.every > 0:
            raise CheckpointError("the checkpoint interval must be a positive number of seconds")
        self._last = time.perf_counter()

    def due(self) -> bool:
        return time.perf_counter() - self._last >= self.every

    def load(self, identity: dict) -> tuple[dict, dict[str, np.ndarray]] | None:
        """The saved counters and arrays, or None when there is no checkpoint yet; another search's file,
        or one that does not read, is refused."""
        if not self.path.exists():
            return None
        try:
            with np.load(self.path, allow_pickle=False) as saved:
                header = json.loads(str(saved["header"]))
                arrays = {name: saved[name] for name in saved.files if name != "header"}
        except (OSError, ValueError, KeyError, zipfile.BadZipFile, json.JSONDecodeError) as err:
            raise CheckpointError(f"{self.path}: not a checkpoint this version can read ({err})") from None
        mine = {"format": FORMAT, **identity}
        theirs = header.get("identity", {})
        for key, value in mine.items():
            if theirs.get(key) != value:
                raise CheckpointError(
                    f"{self.path} was made by another search ({key}: {theirs.get(key)!r}, here {value!r}); "
                    "give another file, or delete it to start again"
                )
        return header["counters"], arrays

    def save(self, identity: dict, counters: dict, arrays: dict[str, np.ndarray]) -> None:
        """Write the state safely (module text); refuse a write the disk cannot hold."""
        needed = sum(a.nbytes for a in arrays.values()) + (1 << 20)
        folder = self.path.parent if str(self.path.parent) else Path(".")
        free = shutil.disk_usage(folder).free
        if needed > free:
            raise CheckpointError(
                f"{self.path}: the checkpoint needs {needed / 2**30:.2f} GiB and the disk holds {free / 2**30:.2f} "
                "GiB more; free some space or give a smaller --memory (the last checkpoint is kept)"
            )
        header = json.dumps({"identity": {"format": FORMAT, **identity}, "counters": counters})
        temporary = self.path.with_name(self.path.name + ".tmp")
        try:
            with open(temporary, "wb") as out:
                np.savez(out, header=np.array(header), **arrays)
                out.flush()
                os.fsync(out.fileno())
            os.replace(temporary, self.path)
        except OSError as err:
            temporary.unlink(missing_ok=True)
            raise CheckpointError(f"{self.path}: cannot write the checkpoint ({err.strerror or err})") from None
        try:  # the rename itself, on the disk
            directory = os.open(folder, os.O_RDONLY)
            try:
                os.fsync(directory)
            finally:
                os.close(directory)
        except OSError:
            pass
        self.written += 1
        self._last = time.perf_counter()


def kernels_version() -> str:
    """The compiled kernels' version: the name of their cache (a digest of every kernel source)."""
    return Path(numba.config.CACHE_DIR).name


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def identity(rules_digest: str, board_text: str, budget: Budget, schedule: Schedule, search: str) -> dict:
    """What a checkpoint must match to be resumed: the game's rules, the board, the kernels, the memory
    budget (the table's growth depends on it), the tuning and the search."""
    return {
        "rules": rules_digest,
        "board": _digest(board_text),
        "kernels": kernels_version(),
        "memory": int(budget.memory),
        "schedule": _digest(repr(schedule)),
        "search": search,
    }


class Keeper:
    """A solve's side of its checkpoint: what it resumed from, and the writes between slices.

    ``counters``: called for the solve's counters at each write (where it stands, its time, its memory)."""

    def __init__(self, checkpoint: Checkpoint | None, made_from: dict):
        self.checkpoint, self.made_from = checkpoint, made_from
        self.counters: dict = {}  # those of the checkpoint resumed from; empty for a fresh search
        self._arrays: dict[str, np.ndarray] | None = None
        if checkpoint is not None:
            loaded = checkpoint.load(made_from)
            if loaded is not None:
                self.counters, self._arrays = loaded
                checkpoint.resumed_from = self.counters["positions"]

    @property
    def seconds(self) -> float:
        """The time the processes before this one searched."""
        return self.counters.get("seconds", 0.0)

    def take_arrays(self) -> dict[str, np.ndarray] | None:
        """The saved search's arrays, once: the search restores from them, and then they go (a table's size)."""
        arrays, self._arrays = self._arrays, None
        return arrays

    def layers_folder(self) -> Path | None:
        """Where the layered search keeps its finished layers beside the checkpoint (None: no checkpoint)."""
        path = None if self.checkpoint is None else self.checkpoint.path
        return None if path is None else path.with_name(path.name + ".layers")

    def keep(self, search, counters: Callable[[], dict], undecided: bool = False) -> None:
        """Between slices of ``search`` (a saveable :class:`~.protocol.Search`): write a checkpoint if one is
        due, asked for (then raise :class:`SearchStopped`), or the search ends ``undecided``."""
        checkpoint = self.checkpoint
        if checkpoint is None:
            return
        stop = checkpoint.stop_requested() and not undecided
        if stop or undecided or checkpoint.due():
            checkpoint.save(self.made_from, counters(), search.state())
        if stop:
            raise SearchStopped(checkpoint.path, search.positions())
