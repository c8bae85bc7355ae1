"""Batch records on disk: the compact table (``*.tsv``) against JSON lines, and the ledger a resume reads."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

from solver.batch import BatchError, read_outcome, run_batch
from solver.cli import main
from solver.game.rules import GAMES, with_worrying_back
from solver.records import TABLE_COLUMNS, TABLE_MARK, mend, read_ledger, read_records
from solver.search import Budget, SolveResult

BD = GAMES["bakers-dozen"]
BUDGET = Budget(seconds=None, positions=20_000)  # a states budget keeps every verdict deterministic
SHARED = (
    "game",
    "deal",
    "verdict",
    "reason",
    "found_by",
    "states",
    "moves",
    "shortened",
    "memory_mib",
    "budget",
    "rules",
)


def shared(records):
    return [{k: r[k] for k in SHARED} for r in records]


def test_a_table_holds_what_json_lines_hold_in_a_fraction_of_the_bytes(tmp_path):
    as_json = run_batch(BD, range(1, 13), Budget(seconds=None, positions=300), tmp_path / "bd.jsonl")
    as_table = run_batch(BD, range(1, 13), Budget(seconds=None, positions=300), tmp_path / "bd.tsv")
    assert as_table.tally == as_json.tally and {"won", "unknown"} <= {r["verdict"] for r in as_json.records()}
    assert shared(as_table.records()) == shared(as_json.records())
    lines = (tmp_path / "bd.tsv").read_text().splitlines()
    assert lines[0].startswith(TABLE_MARK) and lines[1].split("\t") == list(TABLE_COLUMNS) and len(lines) == 14
    assert json.loads(lines[0][len(TABLE_MARK) :]) == {"game": BD.name, "rules": BD.digest(), "layout": "rules"}
    assert (tmp_path / "bd.tsv").stat().st_size * 4 < (tmp_path / "bd.jsonl").stat().st_size


def test_a_table_resumes_after_a_torn_row_and_retries_unknowns_with_a_larger_budget(tmp_path):
    out = tmp_path / "bd.tsv"
    small = run_batch(BD, range(1, 21), Budget(seconds=None, positions=300), out).records()
    unknown = {r["deal"] for r in small if r["verdict"] == "unknown"}
    assert unknown and len(unknown) < 20
    rows = out.read_text().splitlines(keepends=True)
    out.write_text("".join(rows[:12]) + rows[12][:5])  # ten rows whole, the eleventh torn
    again = run_batch(BD, range(1, 21), Budget(seconds=None, positions=300), out).records()
    assert [(r["deal"], r["verdict"]) for r in again] == [(r["deal"], r["verdict"]) for r in small]
    assert len(out.read_text().splitlines()) == 22
    started = []
    larger = run_batch(
        BD, range(1, 21), Budget(seconds=None, positions=10**6), out, on_start=lambda t, n: started.append(n)
    )
    assert started == [len(unknown)] and larger.tally.unknown == 0 and larger.tally.deals == 20
    assert len(out.read_text().splitlines()) == 22 + len(unknown)  # appended, never rewritten


def test_a_resume_counts_each_deal_once_at_its_last_record(tmp_path):
    out = tmp_path / "bd.jsonl"
    run_batch(BD, range(1, 11), Budget(seconds=None, positions=300), out)
    run_batch(BD, range(1, 11), Budget(seconds=None, positions=10**6), out)  # the unknown deals again
    latest = {r["deal"]: r["verdict"] for r in read_records(out)}  # the later line wins
    outcome = read_outcome(out, BD, list(range(1, 11)))
    assert outcome.tally.deals == 10 and outcome.tally.unknown == 0 and len(outcome.seconds) == 10
    assert outcome.tally.won == sum(v == "won" for v in latest.values())
    assert read_outcome(out, BD, [3, 4, 99]).tally.deals == 2  # deals not asked for, or never run, are left out
    ledger = read_ledger(out)
    assert len(ledger.deals) > 10 and np.array_equal(ledger.latest(BD.name)["deal"], np.arange(1, 11))


@pytest.mark.parametrize(
    "content, message",
    [
        ("deal\tverdict\n", "not a table of batch records"),
        ('{"game": "bakers-dozen", "deal": 1, "verdict": "won"}\n', "not a table of batch records"),
        (TABLE_MARK + '{"game": "bakers-dozen"}\n', "line 1 is not a batch record"),
        (TABLE_MARK + '{"game": "bakers-dozen", "rules": null, "layout": "rules"}\ndeal\tverdict\n', "columns"),
        ("{header}1\twon\t\tdepth-first\t0.1\t5\t80\t0\t6.2\t\t2147483648\t20000\n1\tmaybe\n", "line 4 is not"),
        ("{header}7\tperhaps\t\t\t0.1\t5\t0\t0\t6.2\t\t2147483648\t20000\n", "line 3 is not a batch record"),
        ("{header}x\twon\t\t\t0.1\t5\t0\t0\t6.2\t\t2147483648\t20000\n", "line 3 is not a batch record"),
    ],
)
def test_a_malformed_table_is_refused_and_left_alone(content, message, tmp_path):
    out = tmp_path / "bd.tsv"
    header = TABLE_MARK + json.dumps({"game": BD.name, "rules": BD.digest(), "layout": "rules"}) + "\n"
    out.write_text(content.replace("{header}", header + "\t".join(TABLE_COLUMNS) + "\n"))
    before = out.read_bytes()
    with pytest.raises(BatchError, match=message):
        run_batch(BD, [1, 2], BUDGET, out)
    assert out.read_bytes() == before


def test_a_table_of_another_game_or_layout_is_refused(tmp_path):
    out = tmp_path / "bd.tsv"
    run_batch(BD, [1], BUDGET, out)
    with pytest.raises(BatchError, match="holds records of bakers-dozen, not of bakers-dozen-worrying-back"):
        run_batch(with_worrying_back(BD), [1], BUDGET, out)
    with pytest.raises(BatchError, match="other layout"):
        run_batch(BD, [1], BUDGET, out, layout="pysolfc")


def test_winrate_writes_a_table_and_resumes_from_it(tmp_path):
    out = tmp_path / "gm.tsv"
    args = ["winrate", "-g", "good-measure", "-d", "1-6", "-j", "1", "--max-states", "5000", "-o", str(out)]
    first = CliRunner().invoke(main, [*args, "--no-progress"])
    assert first.exit_code == 0, first.output
    records = read_records(out)
    won = sum(r["verdict"] == "won" for r in records)
    assert len(records) == 6 and f"6 deals: {won} won" in first.output
    again = CliRunner().invoke(main, [*args, "--no-progress"])
    assert again.exit_code == 0 and f"6 deals: {won} won" in again.output
    assert len(read_records(out)) == 6  # nothing solved twice


@pytest.mark.parametrize("block", [1, 3, 4, 64, 1 << 16])
def test_mend_cuts_exactly_the_torn_last_line(tmp_path, block):
    """Read back from the end a block at a time: the last newline may lie blocks back, or nowhere."""
    out = tmp_path / "r.jsonl"
    for content, kept in [
        (b"", b""),
        (b"{}\n", b"{}\n"),
        (b'{"a": 1}\n{"b"', b'{"a": 1}\n'),
        (b"{}\n" + b"{" + b"x" * 50, b"{}\n"),
        (b'{"torn first line', b""),
        (b"\n", b"\n"),
        (b"1\twon\n2\tlo", b"1\twon\n"),
        (b"{}\n# bakers-sol", b"{}\n"),
    ]:
        out.write_bytes(content)
        mend(out, block)
        assert out.read_bytes() == kept, (content, block)


def test_a_file_that_ends_in_no_record_is_refused_and_never_cut(tmp_path):
    """A batch given some other file (notes, a binary) refuses it whole: it never cuts its last line."""
    for name, content in [("notes.jsonl", b"my notes\nno newline at the end"), ("data.tsv", b"\x00\x01\x02")]:
        out = tmp_path / name
        out.write_bytes(content)
        with pytest.raises(BatchError):
            run_batch(BD, [1], BUDGET, out)
        assert out.read_bytes() == content


def test_reading_records_writes_nothing_and_reads_a_read_only_file(tmp_path):
    """Tables, plots and a stopped batch's summary read the output while a batch may be writing it: they
    leave a torn last line alone, and need no write permission."""
    out = tmp_path / "bd.jsonl"
    run_batch(BD, [1, 2], BUDGET, out)
    out.write_bytes(out.read_bytes() + b'{"game": "bakers-dozen", "de')
    before = out.read_bytes()
    out.chmod(0o444)
    try:
        assert [r["deal"] for r in read_records(out)] == [1, 2]
        assert read_outcome(out, BD, [1, 2, 3]).tally.deals == 2
        assert out.read_bytes() == before
    finally:
        out.chmod(0o644)


@pytest.mark.parametrize(
    "line",
    [
        '{"game": 1, "deal": 1, "verdict": "won", "seconds": 0.1}',
        '{"game": "bakers-dozen", "deal": 99999999999999999999999, "verdict": "won", "seconds": 0.1}',
        '{"game": "bakers-dozen", "deal": 1, "verdict": "won", "seconds": 1e400}',
        '{"game": "bakers-dozen", "deal": 1, "verdict": "won", "seconds": 1' + "0" * 400 + "}",
        '{"game": "bakers-dozen", "deal": 1, "verdict": "won", "seconds": 0.1, "budget": [60]}',
        '{"game": "bakers-dozen", "deal": 1, "verdict": "won", "seconds": 0.1, "budget": ["a", 1, null]}',
        '{"game": "bakers-dozen", "deal": "1", "verdict": "won", "seconds": 0.1}',
        '{"game": "bakers-dozen", "deal": 1, "verdict": "won", "seconds": 0.1, "layout": ["x"]}',
    ],
)
def test_a_record_of_the_wrong_types_is_refused_with_its_line(line, tmp_path):
    out = tmp_path / "bd.jsonl"
    out.write_text(line + "\n")
    with pytest.raises(BatchError, match="line 1 is not a batch record"):
        run_batch(BD, [1], BUDGET, out)


def test_a_table_header_of_the_wrong_types_is_refused(tmp_path):
    out = tmp_path / "bd.tsv"
    out.write_text(
        TABLE_MARK + '{"game": "bakers-dozen", "rules": null, "layout": ["x"]}\n' + "\t".join(TABLE_COLUMNS) + "\n"
    )
    with pytest.raises(BatchError, match="line 1 is not a batch record"):
        run_batch(BD, [1], BUDGET, out)


def test_a_results_record_keeps_the_keys_records_of_old_have():
    """The walks' counts keep their first name, "chain", in a record (the attributes say "walk")."""
    record = SolveResult("lost", found_by="suit-blind", walk_positions=7, walk_named_low=2, walk_named_high=3).record()
    assert list(record) == [
        "verdict", "reason", "found_by", "states", "seconds", "moves", "raw_moves", "memory_mib", "beams", "evictions",
        "chain_positions", "chain_named", "chain_named_high", "root_test_positions",
    ]  # fmt: skip
    assert (record["chain_positions"], record["chain_named"], record["chain_named_high"]) == (7, 2, 3)
