"""Interrupted batches, memory caps and time caps, as a user running for hours meets them."""

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from solver.batch import read_records, run_batch
from solver.game.deals import deal
from solver.game.rules import GAMES
from solver.search import Budget, solve, warm_up

BD, GM = GAMES["bakers-dozen"], GAMES["good-measure"]
HARD_GOOD_MEASURE = "3,214,462,947"  # unknown after a minute each (462 is lost: the suit-blind walk proves it in 25 s)
KILLS = 10


def without_time(records):
    """The records without their clock readings and budgets (the reference batch has no time limit)."""
    return [{k: v for k, v in r.items() if k not in ("seconds", "budget")} for r in records]


def winrate(out, *args):
    return [sys.executable, "-m", "solver.cli", "winrate", "-o", str(out), "--no-progress", *args]


def lines(path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


@pytest.mark.slow
def test_ten_kills_at_random_points_lose_and_duplicate_nothing(tmp_path):
    # A states budget (not a clock) keeps every verdict deterministic.
    deals, states = range(1, 401), 5_000
    reference = run_batch(BD, deals, Budget(seconds=None, states=states), tmp_path / "reference.jsonl").records()
    expected = {r["deal"]: r for r in without_time(reference)}
    out = tmp_path / "killed.jsonl"
    cmd = winrate(out, "-g", BD.name, "-d", "1-400", "--max-states", str(states), "--timeout", "1000")
    rng = random.Random(20261130)
    torn = 0
    for kill in range(KILLS):
        jobs = str(1 + kill % 2)  # the runner with worker processes, and without
        proc = subprocess.Popen([*cmd, "-j", jobs], start_new_session=True, stderr=subprocess.DEVNULL)
        # Kill at a random point: during start-up, or after a random number of new records.
        target = lines(out) + rng.randint(0, 15)
        deadline = time.time() + 60
        while lines(out) < target and time.time() < deadline:
            time.sleep(rng.uniform(0, 0.01))
        assert proc.poll() is None, f"the batch finished before kill {kill}: give it more deals"
        os.killpg(proc.pid, signal.SIGKILL)  # kill -9, workers and all
        proc.wait()
        torn += out.exists() and not out.read_bytes().endswith(b"\n") and out.stat().st_size > 0
        records = without_time(read_records(out))  # mends a torn last line
        assert len({r["deal"] for r in records}) == len(records), f"a duplicated record after kill {kill}"
        assert all(r == expected[r["deal"]] for r in records), f"a corrupted record after kill {kill}"
        assert len(records) < len(expected)
    done = subprocess.run([*cmd, "-j", "2"], check=True, capture_output=True, text=True)
    assert "400 deals:" in done.stdout
    got = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(without_time(got), key=lambda r: r["deal"]) == without_time(reference)
    print(f"{KILLS} kills survived; {torn} left a torn last line")


PEAK_RSS = (
    "import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True);"
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
)  # the largest resident size of any process below it, in KiB


def peak_rss_mib(cmd) -> float:
    out = subprocess.run([sys.executable, "-c", PEAK_RSS, *cmd], check=True, capture_output=True, text=True)
    return int(out.stdout.split()[-1]) / 1024


@pytest.mark.slow
def test_memory_cap_holds_in_every_worker(tmp_path):
    base = winrate(tmp_path / "base.jsonl", "-g", GM.name, "-d", HARD_GOOD_MEASURE, "-j", "2", "--max-states", "1")
    capped_out = tmp_path / "capped.jsonl"
    capped = winrate(capped_out, "-g", GM.name, "-d", HARD_GOOD_MEASURE, "-j", "2", "--memory", "12M", "-t", "5")
    idle, busy = peak_rss_mib(base), peak_rss_mib(capped)
    records = read_records(capped_out)
    assert len(records) == 4
    # At the cap the table forgets lost marks and goes on, until the clock or until open positions fill it.
    assert all(r["verdict"] == "unknown" and r["reason"] in ("memory", "time") for r in records), records
    assert any(r["evictions"] > 0 for r in records), records
    assert all(r["memory_mib"] <= 12 for r in records)
    assert busy - idle < 12 + 32, (idle, busy)  # the cap, and some slack for numpy and Python


def test_timeout_holds_on_a_deal_that_never_finishes():
    warm_up()  # loading the kernels from numba's cache is not the search's time (alone, this test would count it)
    board = deal(GM, 3)
    for seconds in (0.3, 1.0):
        began = time.perf_counter()
        result = solve(board, GM, Budget(seconds=seconds))
        wall = time.perf_counter() - began
        assert result.verdict == "unknown" and result.reason == "time"
        assert seconds <= result.seconds < seconds + 0.2 and wall < seconds + 0.25, (seconds, wall)


@pytest.mark.slow
def test_timeout_holds_in_a_batch(tmp_path):
    out = tmp_path / "gm.jsonl"
    subprocess.run(winrate(out, "-g", GM.name, "-d", HARD_GOOD_MEASURE, "-j", "2", "-t", "0.5"), check=True)
    records = read_records(out)
    assert [r["reason"] for r in records] == ["time"] * 4
    assert all(0.5 <= r["seconds"] < 0.7 for r in records), records


REFUSED_MEMORY = """
import resource, sys
from solver import GAMES, Budget, deal, solve, warm_up
warm_up()
vm = next(int(line.split()[1]) * 1024 for line in open("/proc/self/status") if line.startswith("VmSize:"))
resource.setrlimit(resource.RLIMIT_AS, (vm + (100 << 20), vm + (100 << 20)))  # 100 MiB more, whatever is asked
rules = GAMES["good-measure"]
result = solve(deal(rules, 462), rules, Budget(seconds=60, memory=16 << 30))
print(result.verdict, result.reason)
"""


@pytest.mark.slow
def test_memory_the_system_refuses_is_unknown_memory_not_a_traceback():
    """Good Measure 462 holds about 300 MiB before it is lost; here the system grants 100 MiB past what
    the process holds, though the budget says 16 GiB: the table's growth is refused (OSError from the
    memory map), and the answer is `unknown (memory)`."""
    out = subprocess.run([sys.executable, "-c", REFUSED_MEMORY], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.split() == ["unknown", "memory"], out.stderr[-2000:]


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        with open(f"/proc/{pid}/status") as status:
            return not any(line.startswith("State:") and "Z" in line for line in status)
    except FileNotFoundError:
        return False


@pytest.mark.slow
def test_workers_die_with_a_killed_batch_and_free_its_output_at_once(tmp_path):
    """``kill -9`` of the batch process alone (not its group): its workers, busy with deals that take a
    minute, go with it, so the output's lock is free and a rerun may resume at once."""
    from solver.batch import exclusive

    out = tmp_path / "gm.jsonl"
    unknown_at_60s = "1187,1889,2238,2323"  # Good Measure deals no search here decides within a minute
    proc = subprocess.Popen([*winrate(out, "-g", "good-measure", "-d", unknown_at_60s, "-t", "60", "-j", "2")])
    deadline = time.time() + 60
    workers: list[int] = []
    while len(workers) < 2 and time.time() < deadline:
        time.sleep(0.2)
        children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children")
        workers = [int(pid) for pid in children.read_text().split()] if children.exists() else []
    assert len(workers) == 2, "the batch started no workers"
    time.sleep(1.0)  # into their deals
    proc.kill()
    proc.wait()
    gone_by = time.time() + 5
    while any(_alive(pid) for pid in workers) and time.time() < gone_by:
        time.sleep(0.05)
    assert not any(_alive(pid) for pid in workers), "a worker outlived its batch"
    with exclusive(out):  # refused with BatchError while a worker holds the lock
        pass


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_stopped_batch_ends_at_once_with_a_summary_and_loses_nothing(signum, tmp_path):
    """Ctrl-C (SIGINT to the whole foreground group) or SIGTERM (to the batch process): within seconds
    it exits 128 + the signal's number with the summary of what was decided, no traceback from any
    worker, and every decided deal in the output, so that the rerun resumes."""
    out = tmp_path / "gm.jsonl"
    cmd = winrate(out, "-g", "good-measure", "-d", "1-400", "-t", "60", "-j", "2")
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.time() + 60
    while lines(out) < 5 and time.time() < deadline:
        time.sleep(0.05)
    assert lines(out) >= 5, "the batch decided nothing"
    stopped_at = time.time()
    if signum == signal.SIGINT:
        os.killpg(proc.pid, signum)
    else:
        proc.send_signal(signum)
    stdout, stderr = proc.communicate(timeout=30)
    assert proc.returncode == 128 + signum and time.time() - stopped_at < 5, (proc.returncode, stderr[-2000:])
    assert "Traceback" not in stderr and "ForkPoolWorker" not in stderr, stderr[-2000:]
    decided = len(read_records(out))
    assert f"({decided} of 400 decided before the stop)" in stdout and "rerun the same command" in stdout, stdout
