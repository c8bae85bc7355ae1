"""Deal numbers (solver/game/deals.py): PySolFC's shuffle, number for number, on both of its random
generators, held to the pysol_cards package's layouts of Baker's Dozen; and the numbers refused.  (The
layouts each game's hook makes of a shuffle are in test_deals.py.)"""

import pytest

from solver.game.deals import DealNumberError, deal, pysol_shuffle, pysolfc_layout
from solver.game.rules import GAMES

pysol_cards = pytest.importorskip("pysol_cards")
from pysol_cards.cards import CardRenderer  # noqa: E402
from pysol_cards.deal_game import Game  # noqa: E402
from pysol_cards.random_base import RandomBase  # noqa: E402

BD = GAMES["bakers-dozen"]


# pysol_cards switches to the Mersenne Twister above 32000, PySolFC at 32000
# itself (pysollib/pysolrandom.py: `0 <= seed < 32000`), so 32000 is left out.
NUMBERS = [*range(1, 301), *range(31900, 32000), *range(32001, 32100), 100_000, 987_654_321, 10**15 + 7]


@pytest.mark.parametrize("number", NUMBERS)
def test_bakers_dozen_matches_pysol_cards(number):
    expected = Game("bakers_dozen", number, RandomBase.DEALS_PYSOLFC).calc_layout_string(CardRenderer(True))
    assert pysolfc_layout(BD, number).to_text() == expected


def test_shuffle_is_a_permutation_on_both_generators():
    for number in (1, 31999, 32000, 5_000_000):
        assert sorted(pysol_shuffle(number)) == list(range(52))


@pytest.mark.parametrize("number", [0, -1, 10**20])
def test_bad_deal_numbers(number):
    with pytest.raises(DealNumberError, match="out of range"):
        deal(BD, number)


def test_shuffle_deals_each_card_twice():
    for number in (1, 31999, 32000, 5_000_000):
        assert sorted(pysol_shuffle(number, decks=2)) == sorted(list(range(52)) * 2)
