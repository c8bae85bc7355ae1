"""Unit checks of the kernel's pruning on positions whose fate is known by hand."""

import numpy as np
import pytest

from solver.game.board import parse_board
from solver.game.rules import GAMES
from solver.kernels import codes
from solver.kernels import dead as D
from solver.search.arrays import kernel_rules, state_arrays


def relaxed_dead(text, rules):
    board = parse_board(text).validate(rules)
    arr, heights, found = state_arrays(board, rules)
    scratch = np.zeros(codes.SCRATCH_SIZE, dtype=np.int32)
    return D.relaxed_dead(arr, heights, found, kernel_rules(rules), scratch)


BD3 = GAMES["bakers-dozen"].reduced(ranks=3, piles=4)  # 3s play the King


def test_a_king_over_a_lower_card_of_its_suit_is_dead_where_spaces_stay_empty():
    # Piles are written bottom first.  3C (the top rank) lies on AC: it can only go up, after AC.
    text = "AC 3C\n3D 2D AD 2C\n3H 2H AH\n3S 2S AS"
    assert relaxed_dead(text, BD3)
    # Spanish Patience: once pile 3 is cleared, 3C may go there.
    assert not relaxed_dead(text, GAMES["spanish-patience"].reduced(ranks=3, piles=4))


def test_cards_already_up_host_nothing():
    # 2C must leave before AC beneath it, and likewise 2H and 2S; their hosts are the 3s.
    # 3D is up and hosts nothing; 3C, 3H and 3S lie under those very 2s.
    text = "Foundations: D-3\n3C AC 2C\nAH 3H 2H\nAS 3S 2S"
    assert relaxed_dead(text, GAMES["bakers-dozen"].reduced(ranks=3, piles=3))


def test_a_winnable_position_is_not_dead():
    text = "3C 2C AC\n3D 2D AD\n3H 2H AH\n3S 2S AS"
    assert not relaxed_dead(text, BD3)


def test_the_kernel_cache_is_kept_apart_for_each_version_of_any_kernel_module(tmp_path):
    """A change to any kernel module (or to solver/limits.py, whose MAX_PILES sizes their layouts) moves
    numba's cache elsewhere, so no kernel runs stale code of a module it calls (numba itself checks only
    the kernel's own file); same sources, same place."""
    from solver.kernels import cache as kernel_cache

    sources = [p.relative_to(kernel_cache.PACKAGE) for p in kernel_cache.kernel_sources(kernel_cache.PACKAGE)]
    for name in sources:
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text((kernel_cache.PACKAGE / name).read_text())
    base = tmp_path / "cache"
    first = kernel_cache.cache_dir(tmp_path, base)
    assert kernel_cache.cache_dir(tmp_path, base) == first and first.parent == base
    for name in sources:
        text = (tmp_path / name).read_text()
        (tmp_path / name).write_text(text + "\n# changed\n")
        assert kernel_cache.cache_dir(tmp_path, base) != first, name
        (tmp_path / name).write_text(text)
    assert kernel_cache.cache_dir(tmp_path, base) == first


def test_every_module_with_kernels_is_in_the_kernels_folder_and_the_cache_digest():
    from solver.kernels import cache as kernel_cache

    with_kernels = {path for path in kernel_cache.PACKAGE.rglob("*.py") if "@njit" in path.read_text()}
    assert with_kernels and with_kernels <= set(kernel_cache.kernel_sources(kernel_cache.PACKAGE))
    assert all(path.parent == kernel_cache.KERNELS for path in with_kernels)


def test_the_package_uses_the_versioned_cache():
    import numba

    from solver.kernels import cache as kernel_cache

    assert numba.config.CACHE_DIR.endswith(kernel_cache.cache_dir(kernel_cache.PACKAGE, kernel_cache.PACKAGE).name)


_NO_COMPILING_AFTER_WARM_UP = """
import importlib
import time
from solver.kernels import cache as kernel_cache
from solver.game.deals import deal
from solver.game.rules import GAMES, with_worrying_back
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
assert solve(deal(rules, 3), rules, Budget(states=70_000), schedule=plain).walk_positions > 0  # a beam, a walk
solve(deal(rules, 1), rules)  # lost at the root
rules = with_worrying_back(GAMES["spanish-patience"])
solve(deal(rules, 1), rules)  # no safe moves, no capacity tests
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


_COMPILING_IS_NOT_BUDGETED = """
import importlib
import time
from solver import GAMES, Budget, deal, solve

solve_module = importlib.import_module("solver.search.solve")  # the module (solver.search.solve is the function)

real_warm_up = solve_module.warm_up

warmed = []


def slow_warm_up():  # as on a fresh cache, where compiling takes a minute and more
    warmed.append(time.perf_counter())
    time.sleep(3)
    real_warm_up()

solve_module.warm_up = slow_warm_up
solve_module.is_warm = lambda: False  # as on a fresh cache
rules = GAMES["good-measure"]
began = time.perf_counter()
result = solve(deal(rules, 2), rules, Budget(seconds=2))
print(result.verdict, result.seconds, len(warmed), time.perf_counter() - began)
"""


@pytest.mark.slow
def test_the_first_solve_compiles_before_its_clock_starts():
    """The README's example on a fresh install answered `unknown (time)` after compiling for longer
    than its budget; now the first solve of a process warms up first, outside the budget."""
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", _COMPILING_IS_NOT_BUDGETED], capture_output=True, text=True)
    verdict, seconds, warm_ups, wall = out.stdout.split()
    assert warm_ups == "1" and float(wall) > 3, out.stdout + out.stderr[-2000:]  # it warmed up, slowly
    assert verdict == "won" and float(seconds) < 2, out.stdout  # and the budget did not count that


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
