"""Numba's compiled-kernel cache, kept apart for each version of the kernel sources.

Numba checks a cached kernel against its own source file only.  A kernel
that calls one from another module (the search calls the capacity test)
would keep running the old callee after that module changes -- an old
pruning rule, so possibly a wrong verdict -- until its own file changes.
So the cache lives in a directory named by a digest of every module of this
folder (and of solver/limits.py, whose ``MAX_PILES`` and ``PILE_ROWS`` size the
kernels' layouts, and which imports nothing): any change to any of them starts
from a clean cache.  The games' rules are not in the digest: the kernels read
them only as the codes the drivers hand them, so a change to a game compiles
nothing again.
Checked by:
  tests/kernels/test_cache.py::test_the_kernel_cache_is_kept_apart_for_each_version_of_any_kernel_module
  tests/kernels/test_cache.py::test_every_module_with_kernels_is_in_the_kernels_folder_and_the_cache_digest
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numba

KERNELS = Path(__file__).parent
PACKAGE = KERNELS.parent


def kernel_sources(package: Path) -> list[Path]:
    """The files whose every change must start a clean cache: the kernels folder, and the limits it reads."""
    return sorted((package / "kernels").glob("*.py")) + [package / "limits.py"]


def cache_dir(package: Path, base: Path) -> Path:
    """Where kernels compiled from the sources of ``package`` are cached, under ``base``."""
    digest = hashlib.sha256()
    for path in kernel_sources(package):
        digest.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes())
    return base / f"numba-{digest.hexdigest()[:16]}"


ENTRY_KERNELS = (
    "dfs.search", "capacity.capacity_search", "suitblind.walk_step", "beam.beam_level", "trap.first_piles_trap_cards",
)  # fmt: skip


def is_warm() -> bool:
    """Whether this version's cache holds the entry kernels already (else the next solve compiles them).
    With numba's compiler off (``NUMBA_DISABLE_JIT=1``, as the coverage run of the kernels has it) the
    kernels are plain Python: nothing is compiled, so nothing is cold."""
    if numba.config.DISABLE_JIT:
        return True
    cache = Path(numba.config.CACHE_DIR)
    return all(any(cache.glob(f"**/{name}-*.nbi")) for name in ENTRY_KERNELS)


def use_versioned_cache() -> None:
    """Point numba's cache at this version's directory; call before any kernel module is imported."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        base = Path(os.environ["NUMBA_CACHE_DIR"])
    elif os.access(PACKAGE, os.W_OK):
        base = PACKAGE / "__pycache__"
    else:  # an installed, read-only package
        base = Path.home() / ".cache" / "bakers-solver"
    numba.config.CACHE_DIR = str(cache_dir(PACKAGE, base))
