"""benchmarks/results_page.py counts a row from its records files: a later file settles an unknown deal,
a deal without a record is missing, and two records that disagree stop it."""

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # benchmarks/ is a folder, not an installed package
from benchmarks.results_page import ResultsError, Row, Source, differences_text, markdown_row, page, table
from solver.stats import wilson_interval  # noqa: E402

BUDGET_10S = [10.0, 2**31, None]
BUDGET_600S = [600.0, 8 * 2**30, None]


def write(path, game, verdicts, budget):
    path.write_text(
        "".join(
            json.dumps({"game": game, "deal": deal, "verdict": verdict, "seconds": 0.5, "budget": budget}) + "\n"
            for deal, verdict in verdicts.items()
        )
    )


def manifest(*paths, first=1, last=6):
    sources = tuple(Source(path, f"bakers winrate ... -o {path}") for path in paths)
    return {"bakers-dozen": {"strict": Row("bakers-dozen", sources, first, last)}}


def test_a_later_file_settles_an_unknown_deal(tmp_path):
    # Deals 1-6: 1-2 won, 3 lost, 4 and 5 unknown in the batch, 6 never recorded; 4 won later.
    write(
        tmp_path / "batch.jsonl",
        "bakers-dozen",
        {1: "won", 2: "won", 3: "lost", 4: "unknown", 5: "unknown"},
        BUDGET_10S,
    )
    write(tmp_path / "later.jsonl", "bakers-dozen", {4: "won", 5: "unknown", 2: "won"}, BUDGET_600S)
    with (tmp_path / "later.jsonl").open("a") as f:  # another game's record in the same file is left out
        f.write(json.dumps({"game": "good-measure", "deal": 5, "verdict": "lost", "seconds": 1.0}) + "\n")
    (result,) = table(manifest("batch.jsonl", "later.jsonl"), tmp_path)
    tally = result.tally
    assert (tally.won, tally.lost, tally.unknown) == (3, 1, 1)
    assert result.missing == [6] and result.unknown == [5]
    assert (result.settled[0].won, result.settled[0].lost) == ([4], [])  # 2 was decided by the batch already
    assert tally.rate == 3 / 4
    # Wilson over the 5 recorded deals, the unknown one counted lost for the lower bound and won for the upper.
    assert tally.interval == (wilson_interval(3, 5)[0], wilson_interval(4, 5)[1])
    line = markdown_row(result)
    assert "| 3 | 1 | 1 | 75.00% |" in line and "1 missing" in line and "mixed: 10-600 s, 2-8 GiB" in line


def test_records_that_disagree_stop_the_script(tmp_path):
    write(tmp_path / "batch.jsonl", "bakers-dozen", {1: "won", 2: "unknown", 3: "lost"}, BUDGET_10S)
    write(tmp_path / "later.jsonl", "bakers-dozen", {2: "won", 3: "won"}, BUDGET_600S)
    with pytest.raises(ResultsError, match=r"bakers-dozen.*\n  deal 3: won in later.jsonl; lost in batch.jsonl"):
        table(manifest("batch.jsonl", "later.jsonl", last=3), tmp_path)


def test_a_row_not_run_yet(tmp_path):
    (result,) = table(manifest("winrate-bakers-dozen-pysolfc.jsonl"), tmp_path)
    assert not result.ran
    assert markdown_row(result).startswith("| Baker's Dozen | strict | not run yet |")


def two_rule_sets(tmp_path, name, strict, pysolfc, last):
    write(tmp_path / "strict.jsonl", name, strict, BUDGET_10S)
    write(tmp_path / "pysolfc.jsonl", f"{name}-pysolfc", pysolfc, BUDGET_10S)
    rows = {
        "strict": Row(name, (Source("strict.jsonl", "s"),), 1, last),
        "pysolfc": Row(f"{name}-pysolfc", (Source("pysolfc.jsonl", "p"),), 1, last),
    }
    return table({name: rows}, tmp_path)


def test_the_deals_whose_verdict_differs_between_the_rule_sets(tmp_path):
    strict, pysolfc = two_rule_sets(
        tmp_path, "cruel", {1: "won", 2: "lost", 3: "lost", 4: "unknown"}, {1: "won", 2: "won", 3: "lost", 4: "won"}, 4
    )
    text = differences_text(strict, pysolfc)
    assert text == (
        "**Cruel**, 3 deals decided by both: won by PySolFC's rules and lost by the strict ones: 1 (2); "
        "lost by PySolFC's and won by the strict ones: 0."
    )
    assert text in page([strict, pysolfc], picture=None)


def test_a_deal_lost_under_pysolfc_s_looser_rules_is_won_strictly_only_on_another_layout(tmp_path):
    """PySolFC's rules allow every strict move: on the same layout a strict win is theirs too (a deal won
    strictly and lost under PySolFC's rules means a wrong verdict); Good Measure 20 is laid out otherwise."""
    strict, pysolfc = two_rule_sets(tmp_path, "good-measure", {20: "won"}, {20: "lost"}, 20)
    assert "lost by PySolFC's and won by the strict ones: 1 (20, each laid out otherwise" in differences_text(
        strict, pysolfc
    )
    strict, pysolfc = two_rule_sets(tmp_path, "cruel", {5: "won"}, {5: "lost"}, 5)
    with pytest.raises(ResultsError, match=r"cruel: deals \[5\] lost under PySolFC's rules, won under the strict"):
        differences_text(strict, pysolfc)


def test_spanish_patience_in_pysolfc_is_another_game_either_may_win_what_the_other_loses(tmp_path):
    strict, pysolfc = two_rule_sets(tmp_path, "spanish-patience", {5: "won", 6: "lost"}, {5: "lost", 6: "won"}, 6)
    assert differences_text(strict, pysolfc).endswith(
        "won by PySolFC's rules and lost by the strict ones: 1 (6); lost by PySolFC's and won by the strict ones: "
        "1 (5, PySolFC's being another game: foundations by alternate colour, spaces that take nothing)."
    )
