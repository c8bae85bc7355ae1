"""The streamlined search's keys (solver/kernels/position.py, ``streamlined_keys``) forget of each card
what the building rule does not read: its suit building by rank, all but its colour by alternate colours,
nothing building by suit (where the driver has no streamlined search: nothing would be forgotten)."""

import numpy as np
import pytest

from solver.kernels import codes
from solver.kernels.position import streamlined_keys, zobrist_keys

ZOB = zobrist_keys(ordered=True, positional=True)


def places(keys: np.ndarray, card: int) -> np.ndarray:
    """The keys of ``card`` in every place (the rows keying a card by its pile and height)."""
    return keys[:, codes.POSITIONAL_ROW :, card]


@pytest.mark.parametrize(
    "build, alike",
    [
        (codes.BUILD_RANK, lambda a, b: a // 4 == b // 4),
        (codes.BUILD_ALTERNATE, lambda a, b: a // 4 == b // 4 and codes.is_red(a) == codes.is_red(b)),
        (codes.BUILD_SUIT, lambda a, b: a == b),
    ],
    ids=["rank", "alternate", "suit"],
)
def test_streamlined_keys_key_two_cards_alike_exactly_where_the_building_rule_reads_them_alike(build, alike):
    keys = streamlined_keys(ZOB, build)
    assert keys.shape == ZOB.shape
    assert np.array_equal(keys[:, : codes.POSITIONAL_ROW], ZOB[:, : codes.POSITIONAL_ROW])  # counts, cards turned
    for a in range(52):
        for b in range(52):
            assert np.array_equal(places(keys, a), places(keys, b)) == alike(a, b), (a, b)
    if build == codes.BUILD_SUIT:
        assert np.array_equal(keys, ZOB)
