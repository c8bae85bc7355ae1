"""Wilson intervals against published values."""

import math

import pytest

from solver.stats import WinRate, wilson_interval


@pytest.mark.parametrize(
    "k, n, low, high",
    [
        # Standard textbook values (z = 1.96).
        (5, 10, 0.2366, 0.7634),
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (1, 20, 0.0089, 0.2361),
        (81, 263, 0.2553, 0.3662),
    ],
)
def test_wilson_known_values(k, n, low, high):
    got = wilson_interval(k, n)
    assert got[0] == pytest.approx(low, abs=5e-5)
    assert got[1] == pytest.approx(high, abs=5e-5)


def test_unknowns_widen_the_interval_both_ways():
    decided = WinRate(won=80, lost=20, unknown=0)
    undecided = WinRate(won=80, lost=10, unknown=10)
    assert undecided.interval[0] == pytest.approx(wilson_interval(80, 100)[0])
    assert undecided.interval[1] == pytest.approx(wilson_interval(90, 100)[1])
    assert undecided.interval[1] > decided.interval[1]
    assert undecided.rate == pytest.approx(80 / 90)
    assert "100 deals: 80 won, 10 lost, 10 unknown" in undecided.text()


def test_no_deals():
    assert math.isnan(WinRate(0, 0, 0).rate)
    assert WinRate(0, 0, 0).interval == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson_interval(3, 2)


def test_a_larger_batch_prints_more_decimals():
    """A million deals resolve the rate to about 0.004 points: two decimals would hide what they measured."""
    assert "win rate 80.00%, 95% interval [" in WinRate(80, 20, 0).text()
    assert "win rate 99.863%" in WinRate(99_863, 137, 0).text()
    million = WinRate(998_592, 1_408, 0)
    low, high = wilson_interval(998_592, 1_000_000)
    assert f"win rate 99.8592%, 95% interval [{100 * low:.4f}%, {100 * high:.4f}%]" in million.text()
