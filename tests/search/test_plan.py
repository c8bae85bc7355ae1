"""The plan (solver/search/plan.py): which searches a solve runs, and their memory, decided once."""

from dataclasses import replace

import pytest

from solver.game.deals import deal
from solver.game.premises import LAYERS_PREMISES
from solver.game.rules import GAMES, with_pysolfc, with_worrying_back
from solver.search import Budget, Schedule
from solver.search.plan import LAYERED, ONE_RUN, SCHEDULED, Plan, Premises, layers_fit

BUDGET = Budget(seconds=10, memory=1 << 30)
SCHEDULE = Schedule()


def plan(game: str, mode: str = SCHEDULED, rules=None, **kwargs) -> Plan:
    rules = rules or GAMES[game]
    return Plan.make(rules, deal(rules, 1), BUDGET, kwargs.pop("schedule", SCHEDULE), mode, **kwargs)


def test_bakers_dozen_scheduled_runs_every_search_and_shares_the_memory():
    p = plan("bakers-dozen")
    assert p.streamlined and p.beams and p.side_searches and not p.root_test_first
    assert p.scored_run == SCHEDULE.scored_run
    assert p.side_memory == int(BUDGET.memory * SCHEDULE.walks_memory)
    assert p.streamline_memory == int(BUDGET.memory * SCHEDULE.streamline_memory)
    assert p.depth_first_memory + p.side_memory + p.streamline_memory == BUDGET.memory


@pytest.mark.parametrize("mode", [ONE_RUN, LAYERED])
def test_one_run_and_layered_test_the_root_first_and_run_nothing_beside(mode):
    p = plan("good-measure", mode)
    assert p.root_test_first and not (p.streamlined or p.beams or p.side_searches or p.scored_run)
    assert p.depth_first_memory == BUDGET.memory and p.side_memory == p.streamline_memory == 0


def test_redeals_turn_off_the_scored_run_and_the_relaxations():
    # Cruel redeals: the capacity relaxation and the walks are proved for games without redeals only, and
    # the scored run's dealt-card term means nothing once a redeal re-cuts the piles.
    p = plan("cruel")
    assert p.premises.redeals and not p.premises.relaxations
    assert p.scored_run == 0 and not p.side_searches and p.side_memory == 0
    assert p.beams  # a beam proves nothing lost, so it needs no premise but face-up cards


def test_worrying_back_turns_off_the_relaxations_even_in_one_run():
    rules = with_worrying_back(GAMES["bakers-dozen"])
    p = plan("bakers-dozen", ONE_RUN, rules=rules)
    assert not p.premises.relaxations and not p.root_test_first


def test_building_by_suit_has_no_streamlined_search():
    # Perseverance builds by suit: streamlined keys would forget nothing, so the search does not run.
    p = plan("perseverance")
    assert p.premises.streamline_keys is None and not p.streamlined and p.streamline_memory == 0


def test_no_streamline_slices_no_streamlined_search():
    p = plan("bakers-dozen", schedule=Schedule(streamline_slices=()))
    assert not p.streamlined and p.streamline_memory == 0


def test_a_game_with_face_down_cards_runs_no_beams():
    face_down = [g for g, r in GAMES.items() if r.face_down_rows]
    assert face_down, "a game of the family deals cards face down"
    assert not plan(face_down[0]).beams


def test_layered_refuses_rules_outside_its_premises_before_any_search():
    with pytest.raises(ValueError, match=LAYERS_PREMISES):
        plan("cruel", LAYERED)
    with pytest.raises(ValueError, match=LAYERS_PREMISES):
        plan("bakers-dozen", LAYERED, rules=with_pysolfc(GAMES["bakers-dozen"]))


def test_a_checkpoint_needs_one_run_or_layered():
    with pytest.raises(ValueError, match="checkpoint needs one_run or layered"):
        plan("bakers-dozen", SCHEDULED, checkpointed=True)
    assert plan("bakers-dozen", ONE_RUN, checkpointed=True).mode == ONE_RUN


def test_an_unknown_mode_is_refused():
    with pytest.raises(ValueError, match="mode"):
        plan("bakers-dozen", "sideways")


def test_layers_fit_piles_few_and_low_enough_with_no_redeal_left():
    board = deal(GAMES["bakers-dozen"], 1)
    assert layers_fit(board)
    assert not layers_fit(replace(board, redeals=1))
    assert not layers_fit(replace(board, piles=(tuple(range(20)),) + board.piles[1:]))


def test_premises_are_the_rules_premises():
    bd, cruel = Premises.of(GAMES["bakers-dozen"]), Premises.of(GAMES["cruel"])
    assert bd.relaxations and bd.beams and bd.layers and not bd.redeals and bd.streamline_keys is not None
    assert not cruel.relaxations and cruel.redeals
    # The layered search's rules premises hold for Cruel; its deals do not fit, with redeals left.
    assert cruel.layers and not layers_fit(deal(GAMES["cruel"], 1))
