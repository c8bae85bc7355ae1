"""Child processes that never outlive the process that started them."""

from __future__ import annotations

import ctypes
import os
import signal


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
