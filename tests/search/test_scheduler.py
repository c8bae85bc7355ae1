"""The scheduler (solver/search/scheduler.py): the plan's searches handed their slices of one budget."""

import time
from dataclasses import replace

import pytest
from corpus import deals
from harness import PLAIN, check_agreement

from solver.game.deals import deal
from solver.game.rules import GAMES
from solver.search import Budget, Schedule, solve
from solver.search.dfs import DepthFirst
from solver.search.result import Progress
from solver.search.root import Root
from solver.search.scheduler import Clock, Holdings
from solver.words import CAPACITY, REASON_STATES, STREAMLINED, SUIT_BLIND, WALK

# Searches beside the runs from the first position on, beams early, and short runs: every turn of the
# scheduler comes on small deals.
EAGER = Schedule(
    run_nodes=8, beam_probes=(), beam_first_after=16, beam_first_width=4, walks_after=0, streamline_slices=()
)


def test_holdings_sum_the_root_and_every_search_once():
    rules = GAMES["bakers-dozen"]
    root = Root(deal(rules, 3), rules)
    holdings = Holdings(root)
    assert holdings.bytes() == root.bytes()
    run = DepthFirst(root, Budget(seconds=None))
    holdings.hold("depth-first", run)
    assert holdings.bytes() == root.bytes() + run.bytes()
    holdings.hold("depth-first", run)  # held again under its name: counted once
    assert holdings.bytes() == root.bytes() + run.bytes()
    holdings.hold("depth-first", None)
    assert holdings.bytes() == root.bytes()


def test_the_clock_reports_every_so_often_and_not_without_a_listener():
    heard = []
    clock = Clock(Budget(seconds=5), heard.append, every=0.0)
    assert clock.deadline == pytest.approx(clock.began + 5)
    assert clock.report_due()
    assert not Clock(Budget(seconds=None), None, every=0.0).report_due()
    slow = Clock(Budget(seconds=None), heard.append, every=3600.0)
    assert slow.deadline is None and not slow.report_due()


@pytest.mark.parametrize("game", ["bakers-dozen", "good-measure"])
def test_every_turn_of_the_schedule_keeps_the_reference_verdict(game):
    counts = check_agreement(deals(f"small/{game}", 300), EAGER)
    found = {r.found_by for r in counts["results"]}
    assert counts["restarted"] > 0 and counts["won"] > 0 and counts["lost"] > 0
    # With the searches beside the runs from the start, the walks and the root's test decide some deals.
    assert found & {WALK, SUIT_BLIND, CAPACITY}, found


def test_beams_decide_some_deals_between_the_runs():
    counts = check_agreement(deals("larger/bakers-dozen", 60), replace(EAGER, walks_after=1 << 40))
    assert counts["by beam"] > 0, {r.found_by for r in counts["results"]}


def test_the_streamlined_search_wins_in_its_first_slice():
    rules = GAMES["bakers-dozen"]
    result = solve(deal(rules, 1), rules, Budget(seconds=None))
    assert result.verdict == "won" and result.found_by == STREAMLINED and result.restarts == 0


def test_a_positions_budget_ends_the_restarts_with_its_reason():
    rules = GAMES["good-measure"]
    result = solve(deal(rules, 3), rules, Budget(seconds=None, positions=3000), schedule=PLAIN)
    assert result.verdict == "unknown" and result.reason == REASON_STATES
    assert 3000 <= result.positions < 3000 + PLAIN.chunk_nodes


def test_progress_is_reported_between_slices():
    rules = GAMES["good-measure"]
    heard: list[Progress] = []
    began = time.perf_counter()
    solve(deal(rules, 3), rules, Budget(seconds=1.0), report=heard.append, report_every=0.05)
    assert heard, "a second of search reports every 0.05 s"
    assert all(0 <= p.seconds <= time.perf_counter() - began for p in heard)
    assert [p.positions for p in heard] == sorted(p.positions for p in heard) and heard[-1].runs >= 1
