"""The numbers the kernels and their drivers agree on (solver/kernels/codes.py): the compiled twins of the
building rule, of what an empty pile takes and of the longest run, held to the rules' own statement
(``Rules.can_host``, ``Rules.space_takes``, ``Rules.max_run``) through the codes the driver hands the
kernels (``solver.search.arrays.kernel_rules``)."""

from dataclasses import replace

import pytest

from solver.game.cards import card_text
from solver.game.rules import BUILD_ALTERNATE, BUILD_RANK, BUILD_SUIT, EMPTY_ANY, EMPTY_KING, EMPTY_NONE, GAMES
from solver.kernels import codes
from solver.search.arrays import kernel_rules


@pytest.mark.parametrize("both_ways", [False, True])
@pytest.mark.parametrize("build", [BUILD_RANK, BUILD_SUIT, BUILD_ALTERNATE])
def test_builds_on_is_can_host(build, both_ways):
    rules = replace(GAMES["bakers-dozen"], build=build, both_ways=both_ways)
    rule_codes = kernel_rules(rules)
    hosted = 0
    for host in range(52):
        for card in range(52):
            kernel = bool(codes.builds_on(host, card, rule_codes.build, rule_codes.both_ways))
            assert kernel == rules.can_host(host, card), (build, both_ways, card_text(host), card_text(card))
            hosted += kernel
    # Each card below the King has 4 hosts by rank, 1 by suit, 2 by alternate colour; twice as many both ways.
    assert hosted == {BUILD_RANK: 192, BUILD_SUIT: 48, BUILD_ALTERNATE: 96}[build] * (2 if both_ways else 1)


@pytest.mark.parametrize("empty", [EMPTY_NONE, EMPTY_ANY, EMPTY_KING])
def test_space_takes_is_the_rules(empty):
    rules = replace(GAMES["bakers-dozen"], empty_pile=empty).reduced(ranks=7, piles=4)
    rule_codes = kernel_rules(rules)
    taken = [rank for rank in range(1, rules.ranks + 1) if codes.space_takes(rank, rule_codes.ranks, rule_codes.empty)]
    assert taken == [rank for rank in range(1, rules.ranks + 1) if rules.space_takes(rank)]
    assert taken == {EMPTY_NONE: [], EMPTY_ANY: list(range(1, 8)), EMPTY_KING: [7]}[empty]


@pytest.mark.parametrize("game", ["castles-in-spain", "martha", "perseverance", "vineyard", "bakers-dozen"])
def test_max_run_is_the_rules(game):
    """Runs of 2^k cards with k spaces (Castles in Spain), any run but one card into a space (Martha), any
    run (Perseverance), single cards (Vineyard, Baker's Dozen); the kernels' "any run" is 64, more than a
    pile holds."""
    rules = GAMES[game]
    rule_codes = kernel_rules(rules)
    for spaces in range(5):
        for into_space in (False, True) if spaces else (False,):
            kernel = int(codes.max_run(rule_codes, spaces, into_space))
            plain = rules.max_run(spaces, into_space)
            assert kernel == (64 if plain == rules.cards else plain), (spaces, into_space, kernel, plain)
