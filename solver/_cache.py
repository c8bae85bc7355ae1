"""Numba's compiled-kernel cache, kept apart for each version of the kernel sources.

Numba checks a cached kernel against its own source file only.  A kernel
that calls one from another module (the search calls the capacity test)
would keep running the old callee after that module changes -- an old
pruning rule, so possibly a wrong verdict -- until its own file changes.
So the cache lives in a directory named by a digest of every kernel module:
any change to any of them starts from a clean cache.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numba

PACKAGE = Path(__file__).parent
KERNEL_MODULES = ("_beam.py", "_capacity.py", "_chains.py", "_common.py", "_kernels.py")


def cache_dir(sources: Path, base: Path) -> Path:
    """Where kernels compiled from the kernel modules in ``sources`` are cached, under ``base``."""
    digest = hashlib.sha256()
    for name in KERNEL_MODULES:
        digest.update(name.encode() + b"\0" + (sources / name).read_bytes())
    return base / f"numba-{digest.hexdigest()[:16]}"


def use_versioned_cache() -> None:
    """Point numba's cache at this version's directory; call before the kernel modules are imported."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        base = Path(os.environ["NUMBA_CACHE_DIR"])
    elif os.access(PACKAGE, os.W_OK):
        base = PACKAGE / "__pycache__"
    else:  # an installed, read-only package
        base = Path.home() / ".cache" / "bakers-solver"
    numba.config.CACHE_DIR = str(cache_dir(PACKAGE, base))
