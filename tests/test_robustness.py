"""Interrupted batches, memory caps and time caps, as a user running for hours meets them."""

import json
import os
import random
import signal
import subprocess
import sys
import time

from solver.batch import read_records, run_batch
from solver.game.deals import deal
from solver.game.rules import GAMES
from solver.search import Budget, solve, warm_up

BD, GM = GAMES["bakers-dozen"], GAMES["good-measure"]
HARD_GOOD_MEASURE = "3,214,462,947"  # unknown after a minute each (462 is lost: the suit-blind walk proves it in 25 s)
KILLS = 20


def without_time(records):
    return [{k: v for k, v in r.items() if k != "seconds"} for r in records]


def winrate(out, *args):
    return [sys.executable, "-m", "solver.cli", "winrate", "-o", str(out), "--no-progress", *args]


def lines(path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


def test_twenty_kills_at_random_points_lose_and_duplicate_nothing(tmp_path):
    # A states budget (not a clock) keeps every verdict deterministic.
    deals, states = range(1, 401), 5_000
    reference = run_batch(BD, deals, Budget(seconds=None, states=states), tmp_path / "reference.jsonl")
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


def test_timeout_holds_in_a_batch(tmp_path):
    out = tmp_path / "gm.jsonl"
    subprocess.run(winrate(out, "-g", GM.name, "-d", HARD_GOOD_MEASURE, "-j", "2", "-t", "0.5"), check=True)
    records = read_records(out)
    assert [r["reason"] for r in records] == ["time"] * 4
    assert all(0.5 <= r["seconds"] < 0.7 for r in records), records
