"""One interface for every search (solver/search/protocol.py): each of the six drivers implements it, and
what each answers through it agrees with the reference search on small deals."""

import time

import numpy as np
import pytest
from corpus import deals

from solver.game.engine import Move, is_solution
from solver.search import Budget, Schedule
from solver.search.beam import Beam
from solver.search.capacity import RootTest
from solver.search.dfs import DepthFirst
from solver.search.layered import Layered
from solver.search.protocol import OPEN, OUTCOMES, Search
from solver.search.root import Root
from solver.search.streamline import Streamlined
from solver.search.suitblind import Walks
from solver.words import LOST, WON

UNLIMITED = Budget(seconds=None, memory=1 << 28)
SMALL = deals("small/bakers-dozen", 120)
DECIDED = [d for d in SMALL if not Root(d.board, d.rules).won]


def searches(root: Root) -> list[Search]:
    return [
        DepthFirst(root, UNLIMITED),
        Streamlined(root, UNLIMITED),
        Beam(root, 8),
        RootTest(root, 1 << 24),
        Walks(root, 1 << 24),
        Layered(root, UNLIMITED),
    ]


def test_the_six_drivers_implement_the_protocol():
    d = DECIDED[0]
    made = searches(Root(d.board, d.rules))
    assert [type(s).__name__ for s in made] == ["DepthFirst", "Streamlined", "Beam", "RootTest", "Walks", "Layered"]
    for search in made:
        assert isinstance(search, Search), type(search).__name__
        assert search.outcome() == OPEN and search.open() and search.positions() == 0
        assert search.bytes() >= 0 and search.reason == ""


def test_every_search_s_outcome_agrees_with_the_reference_and_its_wins_replay():
    seen = {}
    for d in DECIDED:
        for search in searches(Root(d.board, d.rules)):
            search.advance(None)
            outcome = search.outcome()
            assert outcome in OUTCOMES
            name = type(search).__name__
            seen.setdefault(name, set()).add(outcome)
            if outcome == WON:
                assert d.won, (name, d.board.to_text())
                line = search.winning_line()
                assert all(isinstance(move, Move) for move in line)
                assert is_solution(d.board, line, d.rules), name
            elif outcome == LOST:
                assert not d.won, (name, d.board.to_text())
    # The complete searches decide every deal; the relaxations prove some lost; the win-finders win some.
    assert seen["DepthFirst"] == seen["Layered"] == {WON, LOST}
    assert LOST in seen["RootTest"] and WON not in seen["RootTest"]
    assert WON in seen["Beam"] and WON in seen["Streamlined"] and LOST not in seen["Beam"] | seen["Streamlined"]
    assert seen["Walks"] == {WON, LOST}


def searched_lost(name: str) -> tuple:
    """A lost deal of the set whose depth-first search takes more than 100 positions, and that search."""
    for d in deals(name):
        if not d.won:
            whole = DepthFirst(Root(d.board, d.rules), UNLIMITED)
            whole.advance(None)
            if whole.positions() > 100:
                return d, whole
    raise AssertionError(f"no lost deal of {name} needs a search")


def test_advance_to_a_number_of_positions_pauses_and_goes_on_to_the_same_outcome():
    d, whole = searched_lost("larger/good-measure")
    assert whole.outcome() == LOST
    sliced = DepthFirst(Root(d.board, d.rules), UNLIMITED)
    sliced.advance(None, 50)
    assert sliced.outcome() == OPEN and sliced.open() and 50 <= sliced.positions() < whole.positions()
    sliced.advance(None)
    assert sliced.outcome() == LOST and sliced.positions() == whole.positions()


def test_advance_to_a_deadline_in_the_past_searches_nothing():
    d = DECIDED[0]
    past = time.perf_counter() - 1
    for search in searches(Root(d.board, d.rules)):
        if isinstance(search, Layered):
            continue  # it opens its root, whose own tests come before any clock
        search.advance(past)
        assert search.outcome() == OPEN and search.positions() <= 1, type(search).__name__


def test_only_the_depth_first_and_layered_searches_can_be_saved():
    d = DECIDED[0]
    for search in searches(Root(d.board, d.rules)):
        if search.saveable:
            continue
        with pytest.raises(NotImplementedError):
            search.state()
        with pytest.raises(NotImplementedError):
            search.restore({})
    saveable = {type(s).__name__ for s in searches(Root(d.board, d.rules)) if s.saveable}
    assert saveable == {"DepthFirst", "Layered"}


def test_a_depth_first_run_restored_from_its_state_goes_on_to_the_same_positions():
    d, whole = searched_lost("larger/bakers-dozen")
    first = DepthFirst(Root(d.board, d.rules), UNLIMITED)
    first.advance(None, 40)
    state = {name: np.copy(array) for name, array in first.state().items()}
    second = DepthFirst(Root(d.board, d.rules), UNLIMITED)
    second.restore(state)
    second.status = first.status
    second.advance(None)
    assert second.outcome() == whole.outcome() == LOST and second.positions() == whole.positions()


def test_walks_name_a_loss_by_the_relaxed_game_and_a_win_by_the_real_one():
    by = {}
    for d in DECIDED[:60]:
        walks = Walks(Root(d.board, d.rules, Schedule()), 1 << 24)
        walks.advance(None)
        by.setdefault(walks.outcome(), set()).add(walks.found_by)
    assert by[WON] == {"walk"} and by[LOST] == {"suit-blind"}
