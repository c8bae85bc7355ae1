"""Long searches that survive a stop (solver/search/checkpoint.py): a one-run search stopped and taken up
again, any number of times, reaches the same verdict after the same positions as one never stopped."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from collections import namedtuple
from pathlib import Path

import numpy as np
import pytest

from solver.game.deals import deal, random_deal
from solver.game.engine import is_solution
from solver.game.rules import GAMES
from solver.search import Budget, Schedule, solve
from solver.search.checkpoint import Checkpoint, CheckpointError, SearchStopped

Case = namedtuple("Case", "game number verdict")
# One-run searches of some hundred thousand positions: Good Measure 6880 is lost, Baker's Dozen 58 won.
LOST_CASE, WON_CASE = Case("good-measure", 6880, "lost"), Case("bakers-dozen", 58, "won")
# The layered search finds wins only after every position of less progress: a small deal it wins after
# 129,115 positions (Baker's Dozen with 9 ranks and 7 piles, the 13th random deal drawn from "ckpt-(9, 7)").
LAYERED_LOST, LAYERED_WON = LOST_CASE, Case("bakers-dozen-9x7", 13, "won")


def board_and_rules(case: Case):
    if case.game == "bakers-dozen-9x7":
        rules, rng = GAMES["bakers-dozen"].reduced(9, 7), random.Random("ckpt-(9, 7)")
        boards = [random_deal(rules, rng) for _ in range(case.number)]
        return boards[-1], rules
    return deal(GAMES[case.game], case.number), GAMES[case.game]


SLICES = Schedule(chunk_nodes=1 << 12)  # many slices, so many points to stop at
UNLIMITED = Budget(seconds=None, memory=1 << 30)


def summary(result) -> tuple:
    return (result.verdict, result.found_by, result.positions, result.raw_length, result.dead_ends, result.safe_moves,
            result.lone_prunes, result.capacity_dead_ends, result.root_test_positions)  # fmt: skip


def stop_after(ticks: int):
    """A stop request that comes at the given tick."""
    seen = [0]

    def asked() -> bool:
        seen[0] += 1
        return seen[0] >= ticks

    return asked


@pytest.mark.parametrize(
    "case, search",
    [(LOST_CASE, "one_run"), (WON_CASE, "one_run"), (LAYERED_LOST, "layered"), (LAYERED_WON, "layered")],
    ids=lambda v: v if isinstance(v, str) else f"{v.game}-{v.number}",
)
def test_a_search_stopped_many_times_ends_as_one_never_stopped(case, search, tmp_path):
    board, rules = board_and_rules(case)
    how = {search: True}
    whole = solve(board, rules, UNLIMITED, schedule=SLICES, shorten_moves=False, **how)
    assert whole.verdict == case.verdict and whole.positions > 5_000, whole
    path, stops, rng = tmp_path / "search.ckpt", 0, random.Random(case.number)
    while True:
        checkpoint = Checkpoint(path, every=3600.0, stop_requested=stop_after(rng.randint(1, 4)))
        try:
            resumed = solve(board, rules, UNLIMITED, schedule=SLICES, shorten_moves=False, checkpoint=checkpoint,
                            **how)  # fmt: skip
            break
        except SearchStopped as stop:
            stops += 1
            assert stop.path == path and path.exists() and not Path(f"{path}.tmp").exists()
    assert stops >= 5, stops
    assert summary(resumed) == summary(whole)
    assert resumed.moves == whole.moves
    if case.verdict == "won":
        assert is_solution(board, resumed.moves, rules)


def test_an_undecided_search_writes_its_checkpoint_and_the_next_goes_on(tmp_path):
    """Out of positions (or time): the state is written, and the next solve goes on from it."""
    rules = GAMES[LOST_CASE.game]
    board = deal(rules, LOST_CASE.number)
    whole = solve(board, rules, UNLIMITED, schedule=SLICES, one_run=True)
    path = tmp_path / "search.ckpt"
    cut = solve(board, rules, Budget(seconds=None, memory=1 << 30, positions=50_000), schedule=SLICES, one_run=True,
                checkpoint=Checkpoint(path))  # fmt: skip
    assert cut.verdict == "unknown" and path.exists()
    checkpoint = Checkpoint(path)
    rest = solve(board, rules, UNLIMITED, schedule=SLICES, one_run=True, checkpoint=checkpoint)
    assert summary(rest) == summary(whole) and checkpoint.resumed_from >= 50_000


def test_another_search_s_checkpoint_is_refused(tmp_path):
    rules = GAMES["good-measure"]
    path = tmp_path / "search.ckpt"
    cut = Budget(seconds=None, memory=1 << 30, positions=20_000)
    solve(deal(rules, 6880), rules, cut, schedule=SLICES, one_run=True, checkpoint=Checkpoint(path))
    for board, budget, what in [
        (deal(rules, 2715), cut, "board"),  # another deal
        (deal(rules, 6880), Budget(seconds=None, memory=1 << 29), "memory"),  # another memory budget
    ]:
        with pytest.raises(CheckpointError, match=what):
            solve(board, rules, budget, schedule=SLICES, one_run=True, checkpoint=Checkpoint(path))
    with pytest.raises(CheckpointError, match="schedule"):
        solve(deal(rules, 6880), rules, cut, schedule=Schedule(chunk_nodes=1 << 11), one_run=True,
              checkpoint=Checkpoint(path))  # fmt: skip
    other = GAMES["bakers-dozen"]
    with pytest.raises(CheckpointError, match="rules"):
        solve(deal(other, 6880), other, cut, schedule=SLICES, one_run=True, checkpoint=Checkpoint(path))
    path.write_bytes(b"not a checkpoint")
    with pytest.raises(CheckpointError, match="not a checkpoint"):
        solve(deal(rules, 6880), rules, cut, schedule=SLICES, one_run=True, checkpoint=Checkpoint(path))


def test_a_write_the_disk_cannot_hold_is_refused_and_the_last_checkpoint_stays(tmp_path, monkeypatch):
    rules = GAMES["good-measure"]
    board = deal(rules, 6880)
    path = tmp_path / "search.ckpt"
    cut = Budget(seconds=None, memory=1 << 30, positions=20_000)
    solve(board, rules, cut, schedule=SLICES, one_run=True, checkpoint=Checkpoint(path))
    before = path.read_bytes()
    full = namedtuple("usage", "total used free")(1 << 40, 1 << 40, 1 << 10)
    monkeypatch.setattr("solver.search.checkpoint.shutil.disk_usage", lambda folder: full)
    more = Budget(seconds=None, memory=1 << 30, positions=40_000)
    with pytest.raises(CheckpointError, match="disk"):
        solve(board, rules, more, schedule=SLICES, one_run=True, checkpoint=Checkpoint(path))
    assert path.read_bytes() == before


def test_a_write_cut_short_leaves_the_last_checkpoint(tmp_path):
    """A crash while writing leaves FILE.tmp half written: FILE is still the last whole checkpoint."""
    rules = GAMES["good-measure"]
    board = deal(rules, 6880)
    path = tmp_path / "search.ckpt"
    cut = Budget(seconds=None, memory=1 << 30, positions=20_000)
    solve(board, rules, cut, schedule=SLICES, one_run=True, checkpoint=Checkpoint(path))
    Path(f"{path}.tmp").write_bytes(path.read_bytes()[:1000])
    whole = solve(board, rules, UNLIMITED, schedule=SLICES, one_run=True)
    rest = solve(board, rules, UNLIMITED, schedule=SLICES, one_run=True, checkpoint=Checkpoint(path))
    assert summary(rest) == summary(whole)


def test_a_checkpoint_needs_one_run_or_layered(tmp_path):
    rules = GAMES["good-measure"]
    with pytest.raises(ValueError, match="one_run or layered"):
        solve(deal(rules, 3), rules, UNLIMITED, checkpoint=Checkpoint(tmp_path / "x"))


def _bakers(*args: str) -> list[str]:
    return [sys.executable, "-m", "solver.cli", *args]


def test_the_cli_refuses_a_checkpoint_without_one_run_and_another_deal_s_file(tmp_path):
    path = str(tmp_path / "search.ckpt")
    refused = subprocess.run(_bakers("solve", "-g", "good-measure", "-d", "3", "--checkpoint", path),
                             capture_output=True, text=True, timeout=120)  # fmt: skip
    assert refused.returncode == 2 and "--checkpoint needs --one-run or --layered" in refused.stderr
    assert "Traceback" not in refused.stderr
    cut = subprocess.run(_bakers("solve", "-g", "good-measure", "-d", "6880", "--one-run", "--max-states", "20000",
                                 "--checkpoint", path), capture_output=True, text=True, timeout=120)  # fmt: skip
    assert cut.returncode == 0 and "run the same command again" in cut.stderr
    other = subprocess.run(_bakers("solve", "-g", "good-measure", "-d", "2715", "--one-run", "--checkpoint", path),
                           capture_output=True, text=True, timeout=120)  # fmt: skip
    assert other.returncode == 2 and "made by another search (board" in other.stderr, other.stderr
    assert "Traceback" not in other.stderr and len(other.stderr.strip().splitlines()) == 1


@pytest.mark.slow
def test_the_cli_stopped_by_signals_and_killed_resumes_to_the_same_verdict_and_positions(tmp_path):
    """Good Measure 2715, lost after 1.5 million positions in one run: stopped by SIGINT, SIGTERM and
    SIGKILL at random points, each time run again with the same command, it ends as a run never stopped."""
    rules = GAMES["good-measure"]
    whole = solve(deal(rules, 2715), rules, Budget(seconds=None), one_run=True)
    assert whole.verdict == "lost" and whole.positions > 1_000_000
    path = tmp_path / "search.ckpt"
    command = _bakers("solve", "-g", "good-measure", "-d", "2715", "--one-run", "--json", "--timeout", "600",
                      "--checkpoint", str(path), "--checkpoint-every", "0.3")  # fmt: skip
    rng = random.Random(2715)
    signals = [signal.SIGKILL, signal.SIGINT, signal.SIGTERM, signal.SIGKILL, signal.SIGINT, signal.SIGKILL]
    stopped = {}
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    for signum in signals:
        written = path.stat().st_mtime_ns if path.exists() else 0
        proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        deadline = time.time() + 60
        while proc.poll() is None and time.time() < deadline:  # until this run has written a checkpoint
            if path.exists() and path.stat().st_mtime_ns != written:
                break
            time.sleep(0.02)
        time.sleep(rng.uniform(0.0, 0.6))  # then at a random point of its search
        proc.send_signal(signum)
        out, err = proc.communicate(timeout=60)
        if proc.returncode == 0:  # it ended before the signal: nothing more to stop
            break
        stopped[signum] = stopped.get(signum, 0) + 1
        if signum != signal.SIGKILL:
            assert proc.returncode == 128 + signum and "Stopped after" in err and "Traceback" not in err, err
    assert stopped.get(signal.SIGKILL, 0) >= 1 and len(stopped) >= 2, stopped
    final = subprocess.run(command, capture_output=True, text=True, timeout=600, env=env)
    assert final.returncode == 0, final.stderr
    record = json.loads(final.stdout)
    assert record["verdict"] == "lost" and record["states"] == whole.positions, (record, whole.positions)
    assert np.isfinite(record["seconds"])
