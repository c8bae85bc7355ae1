"""The driver of the layered search (solver/search/layered.py): what it refuses and where, a whole deal lost
through the CLI, and its waiting children made distinct.  (The layers' encoding, progress and verdicts
against the reference search are in tests/kernels/test_layered.py.)"""

import random

import pytest
from click.testing import CliRunner
from corpus import Deal, deals

from solver.cli import main
from solver.game.deals import deal, random_deal
from solver.game.engine import is_solution
from solver.game.rules import GAMES
from solver.kernels import codes
from solver.search import Budget, Schedule, solve
from solver.search.layered import Layered
from solver.search.root import Root


def test_layered_search_is_refused_where_its_premises_fail():
    rules = GAMES["spanish-patience"]
    with pytest.raises(ValueError, match="layered search needs"):
        solve(random_deal(rules.reduced(4, 4), random.Random(1)), rules.reduced(4, 4), layered=True)
    tall = GAMES["bakers-dozen"].reduced(13, 3)  # piles of 17 and 18 cards: past a hard length's 4 bits
    with pytest.raises(ValueError, match="at most 15 cards"):
        solve(random_deal(tall, random.Random(2)), tall, layered=True)
    runner = CliRunner()
    refused = runner.invoke(main, ["solve", "-g", "portuguese-solitaire", "-d", "1", "--layered"])
    assert refused.exit_code == 2 and "layered search needs" in refused.output
    both = runner.invoke(main, ["solve", "-g", "good-measure", "-d", "1", "--layered", "--one-run"])
    assert both.exit_code == 2 and "at most one of" in both.output


def test_cli_layered_loses_a_whole_deal():
    """Good Measure 4266, lost by the depth-first search after 2,127 positions: the layered search agrees."""
    out = CliRunner().invoke(main, ["solve", "-g", "good-measure", "-d", "4266", "--layered", "--json"])
    assert out.exit_code == 0, out.output
    assert '"verdict": "lost"' in out.output and '"found_by": "layers"' in out.output


@pytest.mark.slow
def test_waiting_children_made_distinct_change_nothing_but_memory():
    """Each layer's waiting children made distinct after every collection (compact_rows=1): the same verdicts,
    the same positions expanded where the deal is lost (Good Measure 4266: the corpus's lost deals are lost
    at the root), and winning lines that still replay."""
    chosen = deals("larger/good-measure", 12) + deals("larger/bakers-dozen", 12)
    chosen.append(Deal(rules=GAMES["good-measure"], board=deal(GAMES["good-measure"], 4266), won=False))
    compacted, lost_searched = 0, 0
    # A head start for the capacity tests' allowance, ample for these deals: with none, the order in which
    # the two searches meet positions decides which tests give up first, and so how many positions each expands.
    schedule = Schedule(capacity_head_start=1 << 12)
    for d in chosen:
        plain = Layered(Root(d.board, d.rules, schedule), Budget(seconds=None))
        distinct = Layered(Root(d.board, d.rules, schedule), Budget(seconds=None), compact_rows=1)
        status, _ = plain.search(None)
        assert distinct.search(None)[0] == status == (codes.WON if d.won else codes.LOST), d.board.to_text()
        if status == codes.LOST:
            assert distinct.positions() == plain.positions()
            lost_searched += distinct.positions() > 1000 and len(distinct.compacted) > 10
        else:
            assert is_solution(d.board, distinct.line, d.rules)
        compacted += len(distinct.compacted)
    assert compacted >= 200 and lost_searched == 1, (compacted, lost_searched)
