"""Batches: deal ranges, records, resume after a kill, the lock, and a Dask cluster."""

import time

import pytest
from click.testing import CliRunner

from solver import batch
from solver.batch import BatchError, exclusive, parse_deals, read_records, run_batch, summarize
from solver.cli import main
from solver.game.rules import GAMES, with_worrying_back
from solver.search import Budget, Schedule

BD = GAMES["bakers-dozen"]
# A states budget (not a clock) keeps every verdict deterministic.
BUDGET = Budget(seconds=None, positions=20_000)


def without_time(records):
    return [{k: v for k, v in r.items() if k != "seconds"} for r in records]


def test_parse_deals():
    assert parse_deals("1-5") == [1, 2, 3, 4, 5]
    assert parse_deals("7") == [7]
    assert parse_deals("1-3, 2-4,10") == [1, 2, 3, 4, 10]


@pytest.mark.parametrize(
    "text, message",
    [
        ("10-1", "reversed"),
        ("-5", "FIRST-LAST"),
        ("0-3", "from 1 to"),
        ("1-100000000000000000000", "from 1 to"),
        ("1-99999999", "more than"),
        ("a-b", "FIRST-LAST"),
    ],
)
def test_bad_deal_ranges(text, message):
    with pytest.raises(BatchError, match=message):
        parse_deals(text)


def test_records_resume_and_torn_line(tmp_path):
    out = tmp_path / "bd.jsonl"
    full = run_batch(BD, range(1, 9), BUDGET, out).records()
    assert [r["deal"] for r in full] == list(range(1, 9))
    assert {r["verdict"] for r in full} <= {"won", "lost", "unknown"}
    assert len(read_records(out)) == 8
    # Keep five records and half of a sixth, as a kill mid-write would.
    lines = out.read_text().splitlines(keepends=True)
    out.write_text("".join(lines[:5]) + lines[5][:17])
    again = run_batch(BD, range(1, 9), BUDGET, out).records()
    assert without_time(again) == without_time(full)
    assert len(out.read_text().splitlines()) == 8
    assert summarize(again).deals == 8


@pytest.mark.parametrize("output", ["/dev/null", "/dev/zero", "/dev/full", "{tmp}/missing/bd.jsonl", "{tmp}"])
def test_an_output_that_is_no_file_is_refused_at_once(output, tmp_path):
    runner = CliRunner()
    args = ["winrate", "-g", "bakers-dozen", "-d", "1-2", "--no-progress", "-o", output.format(tmp=tmp_path)]
    result = runner.invoke(main, args)
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    assert any(why in result.output for why in ("not a regular file", "there is no folder", "is a directory"))
    assert not (tmp_path / "missing").exists()


def test_corrupt_record_is_refused(tmp_path):
    out = tmp_path / "bd.jsonl"
    out.write_text('{"game": "bakers-dozen", "deal": 1, "verdict": "won"}\nnot json\n{"x": 1}\n')
    with pytest.raises(BatchError, match="line 2 is not a batch record"):
        run_batch(BD, [1, 2], BUDGET, out)


def test_two_batches_on_one_output_refuse(tmp_path):
    out = tmp_path / "bd.jsonl"
    with exclusive(out), pytest.raises(BatchError, match="in use by another batch"):
        run_batch(BD, [1], BUDGET, out)
    runner = CliRunner()
    with exclusive(out):
        result = runner.invoke(main, ["winrate", "-g", "bakers-dozen", "-d", "1-2", "-o", str(out), "--no-progress"])
    assert result.exit_code == 2 and "in use by another batch" in result.output


def test_winrate_command_summary(tmp_path):
    out = tmp_path / "gm.jsonl"
    result = CliRunner().invoke(
        main,
        [
            "winrate",
            "-g",
            "good-measure",
            "-n",
            "6",
            "-j",
            "1",
            "--max-states",
            "5000",
            "-o",
            str(out),
            "--no-progress",
        ],  # fmt: skip
    )
    assert result.exit_code == 0, result.output
    records = read_records(out)
    tally = summarize(records)
    assert f"6 deals: {tally.won} won, {tally.lost} lost, {tally.unknown} unknown" in result.output
    assert "95% interval" in result.output


@pytest.mark.parametrize(
    "args, message",
    [
        (["-d", "9-3"], "reversed"),
        (["-d", "-4"], "FIRST-LAST"),
        (["-n", "0"], "--count must be at least 1"),
        (["-d", "1-3", "-n", "3"], "exactly one of --deals"),
        (["-d", "1-3", "-j", "0"], "--jobs must be at least 1"),
    ],
)
def test_winrate_bad_input(args, message, tmp_path):
    result = CliRunner().invoke(main, ["winrate", "-g", "bakers-dozen", "-o", str(tmp_path / "x.jsonl"), *args])
    assert result.exit_code == 2 and message in result.output


def test_parallel_jobs_give_the_same_records(tmp_path):
    one = run_batch(BD, range(1, 11), BUDGET, tmp_path / "one.jsonl", jobs=1).records()
    two = run_batch(BD, range(1, 11), BUDGET, tmp_path / "two.jsonl", jobs=2).records()
    assert without_time(one) == without_time(two)


@pytest.mark.slow
def test_dask_local_cluster(tmp_path):
    distributed = pytest.importorskip("distributed")
    local = run_batch(BD, range(1, 7), BUDGET, tmp_path / "local.jsonl").records()
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as c:
        remote = run_batch(BD, range(1, 7), BUDGET, tmp_path / "dask.jsonl", scheduler=c.scheduler_address).records()
    assert without_time(remote) == without_time(local)


@pytest.mark.parametrize(
    "address, message",
    [("notaurl", "missing port"), pytest.param("tcp://127.0.0.1:9", "Timed out", marks=pytest.mark.slow)],  # waits 5 s
)
def test_a_scheduler_that_cannot_be_reached_is_one_clear_line(address, message, tmp_path):
    pytest.importorskip("distributed")
    args = ["winrate", "-g", "bakers-dozen", "-d", "1-2", "--no-progress", "-o", str(tmp_path / "bd.jsonl")]
    result = CliRunner().invoke(main, [*args, "--scheduler", address])
    assert result.exit_code == 2 and message in result.output and "Traceback" not in result.output, result.output


@pytest.mark.slow
def test_a_scheduler_lost_mid_run_is_one_clear_line_and_a_rerun_resumes(tmp_path, capfd):
    """A Dask scheduler killed mid-run (``kill -9``): the batch ends with one line and no traceback (the
    client logs every failed reconnection with one), keeps what was decided, and a rerun resumes."""
    import json
    import shutil
    import subprocess

    pytest.importorskip("distributed")
    dask = shutil.which("dask")
    if dask is None:
        pytest.skip("no dask command")
    info = tmp_path / "scheduler.json"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    start = [dask, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard", "--scheduler-file", str(info)]
    scheduler = subprocess.Popen(start, **quiet)
    worker = None
    try:
        deadline = time.monotonic() + 60
        while not info.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        address = json.loads(info.read_text())["address"]
        worker = subprocess.Popen([dask, "worker", address, "--nthreads", "1", "--no-dashboard"], **quiet)
        out = tmp_path / "bd.jsonl"

        def kill_the_scheduler(record, tally):
            if tally.deals == 2:
                scheduler.kill()

        with pytest.raises(BatchError, match="lost the Dask scheduler .*rerun to resume"):
            run_batch(BD, range(1, 41), BUDGET, out, scheduler=address, on_record=kill_the_scheduler)
        assert "Traceback" not in capfd.readouterr().err
        kept = read_records(out)
        assert 2 <= len(kept) < 40
        resumed = run_batch(BD, range(1, 41), BUDGET, out).records()  # here, with the scheduler gone
        assert [r["deal"] for r in resumed] == list(range(1, 41))
        recorded = [r["deal"] for r in read_records(out)]
        assert sorted(recorded) == list(range(1, 41)) and recorded[: len(kept)] == [r["deal"] for r in kept]
    finally:
        for process in (scheduler, worker):
            if process is not None:
                process.kill()
                process.wait()


def test_a_resume_with_a_larger_budget_solves_the_unknown_deals_again(tmp_path):
    out = tmp_path / "bd.jsonl"
    small = run_batch(BD, range(1, 21), Budget(seconds=None, positions=30), out).records()
    unknown = {r["deal"] for r in small if r["verdict"] == "unknown"}
    assert unknown and all(r["budget"] == [None, BUDGET.memory, 30] for r in small)
    same = run_batch(
        BD, range(1, 21), Budget(seconds=None, positions=30), out
    ).records()  # nothing larger: kept as they are
    assert same == small and len(out.read_text().splitlines()) == 20
    started = []
    larger = run_batch(
        BD, range(1, 21), Budget(seconds=None, positions=1_000_000), out, on_start=lambda t, n: started.append(n)
    ).records()
    assert started == [len(unknown)] and all(r["verdict"] != "unknown" for r in larger)
    assert [r for r in larger if r["deal"] not in unknown] == [r for r in small if r["deal"] not in unknown]
    assert len(out.read_text().splitlines()) == 20 + len(unknown)  # appended: the file is never rewritten


def test_records_of_a_verdict_are_read_from_each_deals_last_record(tmp_path):
    out = tmp_path / "bd.jsonl"
    small = run_batch(BD, range(1, 21), Budget(seconds=None, positions=30), out)
    unknown = [r["deal"] for r in small.records(verdicts=("unknown",))]
    larger = run_batch(BD, range(1, 21), Budget(seconds=None, positions=1_000_000), out)
    assert unknown and larger.records(verdicts=("unknown",)) == []  # retried and decided: no longer unknown
    decided = {r["deal"]: r["verdict"] for r in larger.records(verdicts=("won", "lost"))}
    assert sorted(decided) == list(range(1, 21)) and {decided[d] for d in unknown} <= {"won", "lost"}
    by_verdict = [r for v in ("won", "lost", "unknown") for r in larger.records(verdicts=(v,))]
    assert sorted(by_verdict, key=lambda r: r["deal"]) == larger.records()  # the verdicts split the last records


def test_an_output_of_another_game_is_refused(tmp_path):
    out = tmp_path / "bd.jsonl"
    run_batch(BD, [1], BUDGET, out)
    with pytest.raises(BatchError, match="holds records of bakers-dozen, not of bakers-dozen-worrying-back"):
        run_batch(with_worrying_back(BD), [1], BUDGET, out)


def test_a_batch_whose_workers_stop_early_says_so(tmp_path, monkeypatch):
    """A worker's StopIteration, re-raised in the batch process, would end the pool's iterator as if every
    deal were done: it comes back as an error, and a batch short of records says so instead of a KeyError."""

    def stops(*args, **kwargs):
        raise StopIteration

    monkeypatch.setattr(batch, "solve_record", stops)
    with pytest.raises(RuntimeError, match="deal 7"):
        batch._solve_task((GAMES["bakers-dozen"], 7, Budget(seconds=1), batch.RULES_LAYOUT, False))
    monkeypatch.setattr(batch, "_local_results", lambda tasks, jobs: iter([]))
    with pytest.raises(batch.BatchError, match="stopped before deal 1 "):
        batch.run_batch(GAMES["bakers-dozen"], [1, 2], Budget(seconds=1), tmp_path / "r.jsonl")


def test_a_resume_under_other_rules_of_the_same_name_is_refused(tmp_path):
    """Records carry a digest of the rules: a rules file changed under the same name cannot add to them."""
    from solver.game.variants import parse_rules_text

    first = parse_rules_text('name = "mine"\nbase = "bakers-dozen"\npiles = 12\n')
    changed = parse_rules_text('name = "mine"\nbase = "bakers-dozen"\npiles = 11\n')
    out = tmp_path / "mine.jsonl"
    records = run_batch(first, [1], Budget(seconds=5, positions=2000), out).records()
    assert records[0]["rules"] == first.digest() != changed.digest()
    assert (
        run_batch(first, [1, 2], Budget(seconds=5, positions=2000), out).records()[0] == records[0]
    )  # the same rules resume
    with pytest.raises(BatchError, match="under other rules"):
        run_batch(changed, [1, 2], Budget(seconds=5, positions=2000), out)


def test_winrate_on_pysolfc_s_own_layouts(tmp_path):
    """``--pysolfc-layout``: each deal as PySolFC lays it out (Good Measure 2 keeps a King above a card
    there), the records say so, and the other layout cannot add to the file."""
    out = tmp_path / "gm.jsonl"
    args = ["winrate", "-g", "good-measure", "-d", "2", "-t", "30", "--no-progress", "-o", str(out), "-j", "1"]
    result = CliRunner().invoke(main, [*args, "--pysolfc-layout"])
    assert result.exit_code == 0, result.output
    assert "PySolFC's own layouts" in result.output
    (record,) = read_records(out)
    assert record["layout"] == "pysolfc" and record["verdict"] == "won"
    refused = CliRunner().invoke(main, args)
    assert refused.exit_code == 2 and "other layout" in refused.output


def test_winrate_under_pysolfc_s_rules(tmp_path):
    """``--pysolfc``: PySolFC's rules and layouts; the records name the rules (Cruel 924 is won only there),
    and a run under the rules' own game cannot add to the file."""
    out = tmp_path / "cruel.jsonl"
    args = ["winrate", "-g", "cruel", "-d", "923-924", "-t", "30", "--no-progress", "-o", str(out), "-j", "1"]
    result = CliRunner().invoke(main, [*args, "--pysolfc"])
    assert result.exit_code == 0, result.output
    assert "Cruel (PySolFC's rules), deals 923-924: " in result.output
    records = read_records(out)
    assert [(r["game"], r["layout"], r["verdict"]) for r in records] == [("cruel-pysolfc", "pysolfc", "won")] * 2
    refused = CliRunner().invoke(main, args)
    assert refused.exit_code == 2 and "holds records of cruel-pysolfc, not of cruel" in refused.output


def test_a_batch_records_raw_lines_unless_asked_to_shorten_them(tmp_path):
    """Shortening a line changes its length, never the verdict; a batch skips it unless asked (it took 80% of
    an easy deal's time), and each record says which it did."""
    raw = run_batch(BD, range(1, 6), BUDGET, tmp_path / "raw.jsonl").records()
    short = run_batch(BD, range(1, 6), BUDGET, tmp_path / "short.jsonl", shorten=True).records()
    assert [r["verdict"] for r in raw] == [r["verdict"] for r in short]
    assert all(not r["shortened"] and r["moves"] == r["raw_moves"] for r in raw)
    assert all(r["shortened"] and r["moves"] <= r["raw_moves"] for r in short)
    assert sum(r["moves"] for r in short) < sum(r["moves"] for r in raw)


def test_a_batch_record_says_which_search_proved_a_loss():
    from solver.batch import solve_record

    record = solve_record("good-measure", 82, Budget(seconds=30), Schedule(walks_after=0))
    assert record["verdict"] == "lost" and record["found_by"] == "suit-blind" and record["chain_positions"] > 0
    record = solve_record("good-measure", 1, Budget(seconds=30), Schedule(walks_after=0))  # lost at the root
    assert record["verdict"] == "lost" and record["found_by"] == "depth-first" and record["chain_positions"] == 0
