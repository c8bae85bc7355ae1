"""Compiling the kernels once per version (solver/search/warm.py): ``warm_up()`` compiles every kernel a
solve uses, in two child processes on a fresh cache, which die with the process that started them."""

import pytest

_NO_COMPILING_AFTER_WARM_UP = """
import importlib
import time
from solver.kernels import cache as kernel_cache
from solver.game.deals import deal
from solver.game.rules import GAMES, with_pysolfc, with_worrying_back
from solver.search import Budget, Schedule, solve, warm_up

def signatures():
    names = [p.stem for p in kernel_cache.kernel_sources(kernel_cache.PACKAGE) if p.parent.name == "kernels"]
    modules = [importlib.import_module("solver.kernels." + name) for name in names]
    return {(m.__name__, n): len(f.signatures) for m in modules for n, f in vars(m).items() if hasattr(f, "signatures")}

# A clock that jumps an hour at each reading: as on a fresh cache, where compiling outlasts any budget.
readings = iter(range(10**9))
real_clock, time.perf_counter = time.perf_counter, lambda: 3600.0 * next(readings)  # every module's clock
warm_up()
time.perf_counter = real_clock
before = signatures()
rules = GAMES["good-measure"]
solve(deal(rules, 2), rules)  # restarts twice, capacity tests on the way
plain = Schedule(streamline_slices=())  # (the streamlined search would take positions from the walks)
assert solve(deal(rules, 3), rules, Budget(positions=70_000), schedule=plain).walk_positions > 0  # a beam, a walk
solve(deal(rules, 1), rules)  # lost at the root
rules = with_worrying_back(GAMES["spanish-patience"])
solve(deal(rules, 1), rules)  # no safe moves, no capacity tests
rules = GAMES["cruel"]
solve(deal(rules, 1), rules)  # the traps of the first piles, at the root
rules = with_pysolfc(GAMES["bakers-dozen"])
solve(deal(GAMES["bakers-dozen"], 5), rules)  # the strict probe, then PySolFC's own search
after = signatures()
print(sorted(k for k in after if after[k] != before.get(k, 0)))
"""


@pytest.mark.slow
def test_warm_up_compiles_every_kernel_a_solve_uses():
    """Batch runs warm up once before forking workers and time each deal from then on: a kernel
    the warm-up leaves out would be compiled inside a deal's measured seconds (7 s on a fresh cache).
    The warm-up must not look at the clock: on a fresh cache its first kernels took longer to compile
    than the default budget, so the search kernel itself was left out."""
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-c", _NO_COMPILING_AFTER_WARM_UP], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip().splitlines()[-1] == "[]"


_FRESH_COMPILE = """
from numba.core import event

compiled = []


class Compiles(event.Listener):
    def on_start(self, e):
        compiled.append(e.data["dispatcher"].py_func.__name__)

    def on_end(self, e):
        pass


event.register("numba:compile", Compiles())
from solver.search import warm_up

lines = []
warm_up(report=lines.append)
print(lines)
print(compiled)
"""


@pytest.mark.slow
def test_a_fresh_cache_is_filled_by_two_processes_at_once_and_this_one_compiles_nothing(tmp_path):
    """The first run compiles the kernels in two child processes at once (about half a minute on 2 cores,
    where one process took a minute and more); this process then only loads them."""
    import os
    import subprocess
    import sys

    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    out = subprocess.run([sys.executable, "-c", _FRESH_COMPILE], env=env, capture_output=True, text=True, check=True)
    lines, compiled = out.stdout.strip().splitlines()
    assert lines.count("compiled in") == 2 and "failed" not in lines, lines
    assert compiled == "[]"  # every kernel came from the children's cache


@pytest.mark.slow
def test_compiling_children_die_with_the_process_that_started_them(tmp_path):
    """``kill -9`` of a first run leaves no compiling process behind."""
    import os
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    def stat(pid):  # (state, parent), or None once gone
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            return None
        return fields[0], int(fields[1])

    def children(pid):
        pids = [int(p.name) for p in Path("/proc").iterdir() if p.name.isdigit()]
        return [child for child in pids if (stat(child) or ("", 0))[1] == pid]

    def alive(pid):  # a zombie is dead, whether or not its new parent has reaped it yet
        return stat(pid) is not None and stat(pid)[0] != "Z"

    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    parent = subprocess.Popen([sys.executable, "-c", "from solver.search import warm_up; warm_up()"], env=env)
    deadline = time.monotonic() + 30
    while len(children(parent.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    compiling = children(parent.pid)
    assert len(compiling) == 2
    parent.send_signal(signal.SIGKILL)
    parent.wait()
    deadline = time.monotonic() + 5
    while any(alive(pid) for pid in compiling) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = [pid for pid in compiling if alive(pid)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left
