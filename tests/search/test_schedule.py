"""The solver's tuning (solver/search/schedule.py): when the beams come, and the schedules refused."""

import pytest

from solver.search import Schedule


def test_the_probe_beams_come_first_and_only_before_the_schedule_s_first():
    """The probes are the first beams and the schedule's follow them; a probe that would come after the
    schedule's first beam (the tests' small schedules) is left out."""
    default = Schedule(beam_probes=((100, 10), (200, 30)), beam_first_after=1000, beam_first_width=1000)
    assert [(default.beam_due(k), default.beam_width(k)) for k in range(4)] == [
        (100, 10),
        (200, 30),
        (1000, 1000),
        (4000, 4000),
    ]
    for without in (Schedule(beam_probes=()), Schedule(beam_first_after=4, beam_first_width=2)):
        assert (without.beam_due(0), without.beam_width(0)) == (without.beam_first_after, without.beam_first_width)
        assert without.beam_due(1) == without.beam_first_after * without.beam_growth


def test_a_schedule_without_room_for_its_restarts_noise_is_refused():
    """Its restarts perturb the move order by 1 to ``streamline_noise``: 0 would divide by zero mid-search."""
    with pytest.raises(ValueError, match="streamline_noise"):
        Schedule(streamline_noise=0)
    with pytest.raises(ValueError, match="run_growth"):
        Schedule(run_growth="triple")
