"""Interrupted batches, memory caps and time caps, as a user running for hours meets them."""

import json
import os
import random
import shutil
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
HARD_GOOD_MEASURE = "462,1889,5231,6978"  # unknown for 20 s or more (462 is lost: the suit-blind walk proves it)
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
    deals, positions = range(1, 401), 5_000
    reference = run_batch(BD, deals, Budget(seconds=None, positions=positions), tmp_path / "reference.jsonl").records()
    expected = {r["deal"]: r for r in without_time(reference)}
    out = tmp_path / "killed.jsonl"
    cmd = winrate(out, "-g", BD.name, "-d", "1-400", "--max-states", str(positions), "--timeout", "1000")
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


def _descendants(pid: int) -> list[int]:
    """The processes below ``pid``, children first (Linux)."""
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            children = [int(child) for child in (task / "children").read_text().split()]
        except OSError:  # gone meanwhile
            continue
        for child in children:
            found += [child, *_descendants(child)]
    return found


def _stacks(pids: list[int]) -> str:
    """What each process is doing: its state and the signals it ignores or catches (/proc), and the stacks
    of its Python threads (py-spy, a test dependency; else the kernel's stack, which root may read)."""
    spy = Path(sys.executable).with_name("py-spy")
    spy = str(spy) if spy.exists() else shutil.which("py-spy")
    texts = []
    for pid in pids:
        try:
            status = Path(f"/proc/{pid}/status").read_text().splitlines()
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()[:200]
        except OSError:
            texts.append(f"--- {pid}: gone")
            continue
        kept = [line for line in status if line.startswith(("State:", "SigBlk:", "SigIgn:", "SigCgt:"))]
        ignored = int(next(line for line in status if line.startswith("SigIgn:")).split()[1], 16)
        names = [sig.name for sig in (signal.SIGINT, signal.SIGTERM) if ignored >> (sig - 1) & 1]
        kept += [f"(ignores {', '.join(names)})"] if names else []
        texts.append(f"--- {pid}: {cmdline}\n" + "\n".join(kept))
        if spy:
            dump = subprocess.run([spy, "dump", "--pid", str(pid)], capture_output=True, text=True, timeout=60)
            texts.append(dump.stdout + dump.stderr)
        else:
            try:
                texts.append(Path(f"/proc/{pid}/stack").read_text())
            except OSError as err:
                texts.append(f"(no py-spy, and no kernel stack: {err})")
    return "\n".join(texts)


def _sigint_as_at_a_terminal() -> None:
    """In the batch's child process before it runs: Ctrl-C's default, as in a command a user runs at a
    terminal.  A test run started as a background job of a script (``pytest ... &``) ignores SIGINT, and
    its batches would too, as the shell means for background jobs (Python keeps an inherited SIG_IGN):
    the Ctrl-C test then failed, the batch going on untouched (issue 46)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _start_batch(cmd) -> subprocess.Popen:
    """A batch in a process group of its own, as a shell runs a command in the foreground."""
    return subprocess.Popen(
        cmd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=_sigint_as_at_a_terminal,
    )


def _stop(proc: subprocess.Popen, signum: int, limit: float = 5) -> tuple[str, str, float, list[int]]:
    """Stop a batch as a user does: Ctrl-C is SIGINT to the whole foreground group, SIGTERM goes to the
    batch process.  Its stdout, stderr, the seconds it took to end, and its processes when stopped.  One
    that has not ended within ``limit`` seconds fails the test with what each of its processes was doing
    (and is killed, group and all)."""
    processes = [proc.pid, *_descendants(proc.pid)]
    stopped_at = time.time()
    if signum == signal.SIGINT:
        os.killpg(proc.pid, signum)
    else:
        proc.send_signal(signum)
    try:
        stdout, stderr = proc.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        stacks = _stacks([proc.pid, *_descendants(proc.pid)])
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail(f"the batch had not ended {limit} s after {signal.Signals(signum).name}:\n{stacks}")
    return stdout, stderr, time.time() - stopped_at, processes


def _wait_for_records(out, count: int, proc: subprocess.Popen) -> None:
    deadline = time.time() + 60
    while lines(out) < count and time.time() < deadline and proc.poll() is None:
        time.sleep(0.01)
    assert lines(out) >= count, "the batch decided nothing"


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_stopped_batch_ends_at_once_with_a_summary_and_loses_nothing(signum, tmp_path):
    """Ctrl-C (SIGINT to the whole foreground group) or SIGTERM (to the batch process): within seconds
    it exits 128 + the signal's number with the summary of what was decided, no traceback from any
    worker, no worker left, and every decided deal in the output, so that the rerun resumes."""
    out = tmp_path / "gm.jsonl"
    proc = _start_batch(winrate(out, "-g", "good-measure", "-d", "1-400", "-t", "60", "-j", "2"))
    _wait_for_records(out, 5, proc)
    stdout, stderr, seconds, processes = _stop(proc, signum)
    assert proc.returncode == 128 + signum and seconds < 5, (proc.returncode, seconds, stderr[-2000:])
    assert "Traceback" not in stderr and "ForkPoolWorker" not in stderr, stderr[-2000:]
    assert len(processes) == 3 and not any(_alive(pid) for pid in processes), processes
    decided = len(read_records(out))
    assert f"({decided} of 400 decided before the stop)" in stdout and "rerun the same command" in stdout, stdout


@pytest.mark.slow
def test_batches_stopped_at_random_points_under_load_end_at_once(tmp_path):
    """The stop above, again and again at random points, a busy process beside the batch's two workers
    (one, not more: the suite runs other tests at the same time, some of them timed): each ends within
    seconds with its summary and no worker left, the records stay whole and unique, and the rerun resumes
    from them to the end."""
    out = tmp_path / "bd.jsonl"
    # A states budget, not a clock: the same verdicts whatever the load.
    cmd = winrate(out, "-g", BD.name, "-d", "1-800", "--max-states", "20000", "-t", "1000", "-j", "2")
    rng = random.Random(46)
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"])]
    try:
        for stop in range(6):
            signum = (signal.SIGINT, signal.SIGTERM)[stop % 2]
            proc = _start_batch(cmd)
            _wait_for_records(out, lines(out) + rng.randint(1, 40), proc)
            time.sleep(rng.uniform(0, 0.2))
            stdout, stderr, seconds, processes = _stop(proc, signum)
            assert proc.returncode == 128 + signum and seconds < 5, (stop, proc.returncode, seconds, stderr[-2000:])
            assert "Traceback" not in stderr and "rerun the same command" in stdout, (stop, stdout, stderr[-2000:])
            assert not any(_alive(pid) for pid in processes), (stop, processes)
            decided = len(read_records(out))
            assert f"({decided} of 800 decided before the stop)" in stdout, (stop, stdout)
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    done = subprocess.run(cmd, capture_output=True, text=True, check=True)
    assert "800 deals:" in done.stdout, done.stdout
    assert sorted(r["deal"] for r in read_records(out)) == list(range(1, 801))
