"""The suit-blind relaxation (solver/kernels/suitblind.py) against a plain model of it and against the reference search.

The plain model searches the abstract game of the module text over plain
tuples, every empty pile a target of its own (the kernel treats piles without
a prefix as interchangeable), with the restrictions of its Claim 2 or
without; the reference search decides the real game.
Positions are met on random walks from random reduced deals, abstracted
against the deal.
"""

import random

import numpy as np
import pytest
from corpus import deals
from harness import fast_sample, kernel_dead, kernel_state, kernel_walk
from naive import WALK_SIZES as SIZES
from naive import PlainSuitBlind, WalkReference, walk_positions

from solver.game.engine import apply_move, reference_search
from solver.game.premises import classic
from solver.game.rules import GAMES
from solver.kernels import codes
from solver.kernels import suitblind as H
from solver.search.arrays import WALK_KEYS

CLASSIC = [g for g in GAMES if classic(GAMES[g])]  # the capacity test, walks and beams apply
# The random draws' seeds ("chains-...") keep the walks' first name, so that they draw the same cases.


def _random_state(rng: random.Random, piles: int, low: int, high: int) -> np.ndarray:
    """Arrays of the walk's layout (13 ranks), not positions of any game: the hash is a function of them alone."""
    n = [rng.choice([0, 0, 1, 2, 5]) for _ in range(piles)]
    k = [rng.randrange(4) for _ in range(piles)]
    b = [rng.randrange(1, 14) if n[p] == 0 and k[p] else 0 for p in range(piles)]
    names = [rng.randrange(5) for _ in range(piles * (low + high))]
    return np.array(n + k + b + [rng.randrange(14) for _ in range(4)] + [low, 14 - high] + names, np.int8)


def _hash(state: np.ndarray, piles: int) -> tuple[int, int]:
    out = np.zeros(2, dtype=np.uint64)
    H._hash(state, piles, WALK_KEYS, out)
    return int(out[0]), int(out[1])


@pytest.mark.parametrize("low, high", [(0, 0), (3, 0), (0, 3), (2, 4), (13, 0)])
def test_the_hash_ignores_the_order_of_piles_without_a_prefix_and_a_child_hash_is_the_full_one(low, high):
    """Swapping two piles without a prefix (counts, bottom rank and names) keeps the hash, swapping two
    with one changes it; the walk's hash of a child, from its parent's parts and the two piles and the
    foundations it changed, equals the hash computed in full."""
    rng = random.Random(f"chains-hash-{low}-{high}")
    piles, swapped, named = 13, 0, low + high
    names = H._HEADER * piles + H._H_NAMES
    columns = [
        [H._PREFIX * piles + p, H._SLOTS * piles + p, H._BOTTOM * piles + p]
        + [names + p * named + t for t in range(named)]
        for p in range(piles)
    ]
    for _ in range(300):
        state = _random_state(rng, piles, low, high)
        p, q = rng.sample(range(piles), 2)
        other = state.copy()
        other[columns[p]], other[columns[q]] = state[columns[q]], state[columns[p]]
        if state[p] == 0 and state[q] == 0:
            assert _hash(other, piles) == _hash(state, piles)
            swapped += 1
        elif state[p] > 0 and state[q] > 0 and (state[columns[p]] != state[columns[q]]).any():
            assert _hash(other, piles) != _hash(state, piles)
        child = _random_state(rng, piles, low, high)  # the parent with piles p, q and the foundations changed
        keep = [c for r in range(piles) if r not in (p, q) for c in columns[r]]
        child[keep] = state[keep]
        parts, out = np.zeros((2, 2), dtype=np.uint64), np.zeros(2, dtype=np.uint64)
        H._hash_parts(state, piles, WALK_KEYS, parts)
        H._child_hash(state, child, piles, WALK_KEYS, parts, p, q, out)
        assert (int(out[0]), int(out[1])) == _hash(child, piles)
    assert swapped >= 30, swapped


@pytest.mark.parametrize("game", CLASSIC)
def test_kernel_decides_the_suit_blind_game_as_the_plain_model(game):
    """Same verdict on every abstract position met, with the capacity test inside the walk and without;
    where lost without it, the kernel meets exactly the positions the model reaches (up to the order of
    piles without a prefix), so it makes exactly the model's moves.  The restrictions of the module's
    Claim 2 leave fewer of them in most of the games."""
    rng = random.Random(f"chains-model-{game}")
    verdicts = {codes.WON: 0, codes.LOST: 0}
    restricted_fewer = 0
    for i in range(40):
        rules = GAMES[game].reduced(*SIZES[i % len(SIZES)])
        for origin, board in walk_positions(rules, rng, 1, steps=12):
            model = PlainSuitBlind(origin, rules)
            piles, found = model.abstract(board)
            won, reached = model.reachable(piles, found, canonical=True)
            expected = codes.WON if won else codes.LOST
            state, met = kernel_state(piles, found, rules.ranks), []
            for capacity in (False, True):
                assert kernel_walk(state, origin, rules, capacity, met) == expected, (game, capacity, board.to_text())
            if not won:
                assert met[0] == reached, (game, board.to_text())
                unrestricted = PlainSuitBlind(origin, rules, restricted=False)
                restricted_fewer += unrestricted.reachable(piles, found, canonical=True)[1] > reached
            verdicts[expected] += 1
    assert verdicts[codes.WON] >= 40 and verdicts[codes.LOST] >= 40 and restricted_fewer >= 20, verdicts


@pytest.mark.parametrize("game", CLASSIC)
def test_with_every_rank_named_the_walk_decides_the_real_game(game):
    """Naming every rank keeps every suit: the walk's game is the real one (with the restrictions of
    the module's Claim 2), so its verdict is the reference search's, won and lost alike."""
    rng = random.Random(f"chains-real-{game}")
    verdicts = {codes.WON: 0, codes.LOST: 0}
    for i in range(30):
        rules = GAMES[game].reduced(*SIZES[i % len(SIZES)])
        reference = WalkReference(rules)
        for origin, board in walk_positions(rules, rng, 1, steps=8):
            abstract = PlainSuitBlind(origin, rules).abstract(board)
            expected = codes.LOST if reference.lost(origin, board) else codes.WON
            assert kernel_walk(kernel_state(*abstract, rules.ranks, board, rules.ranks), origin, rules) == expected, (
                game, board.to_text(), origin.to_text()
            )  # fmt: skip
            verdicts[expected] += 1
    assert verdicts[codes.WON] >= 20 and verdicts[codes.LOST] >= 20, verdicts


NAMED = [(game, low, high) for game in CLASSIC for low, high in [(2, 0), (3, 0), (0, 2), (0, 3)]]


@pytest.mark.parametrize("game, low, high", fast_sample(NAMED, NAMED[:-4] + NAMED[-3:]))  # Spanish Patience II 2-0: 4 s
def test_positions_a_game_with_named_ranks_loses_are_lost(game, low, high):
    """With the suits of the lowest or highest ranks kept, every position the walk loses is lost."""
    rng = random.Random(f"chains-named-{game}-{low}-{high}")
    lost = 0
    for i in range(60):
        rules = GAMES[game].reduced(*SIZES[i % len(SIZES)])
        reference = WalkReference(rules)
        for origin, board in walk_positions(rules, rng, 1):
            abstract = PlainSuitBlind(origin, rules).abstract(board)
            if kernel_walk(kernel_state(*abstract, rules.ranks, board, low, high), origin, rules) != codes.LOST:
                continue
            assert reference.lost(origin, board), (game, board.to_text(), origin.to_text())
            lost += 1
    assert lost >= 50, lost


@pytest.mark.slow
def test_naming_the_highest_ranks_loses_positions_the_suit_blind_game_wins():
    """Small decks rarely need suits: the suit-blind game is exact on nearly every position of the
    tests above.  Good Measure on 7 ranks and 4 piles (7 cards a pile) is where it is not: among the
    positions whose suit-blind game is won, the reference search loses 15, and the game naming the
    three highest ranks loses 13 of them (like Good Measure 560, module text "Named ranks").  Every
    position a game naming high ranks loses is lost."""
    rules = GAMES["good-measure"].reduced(7, 4)
    reference, rng = WalkReference(rules), random.Random("beyond-good-measure")
    blind_won_real_lost, lost_by_names = 0, {2: 0, 3: 0}
    for origin, board in walk_positions(rules, rng, 1000, steps=3):
        abstract = PlainSuitBlind(origin, rules).abstract(board)
        if kernel_walk(kernel_state(*abstract, rules.ranks), origin, rules) != codes.WON:
            continue
        lost = reference.lost(origin, board)
        blind_won_real_lost += lost
        for high in lost_by_names:
            if kernel_walk(kernel_state(*abstract, rules.ranks, board, 0, high), origin, rules) == codes.LOST:
                assert lost, (high, board.to_text(), origin.to_text())
                lost_by_names[high] += 1
    assert blind_won_real_lost >= 10 and lost_by_names[3] >= 10, (blind_won_real_lost, lost_by_names)


@pytest.mark.parametrize("game", fast_sample(CLASSIC, ["good-measure"]))
def test_positions_the_suit_blind_game_loses_are_lost(game):
    """Wherever the suit-blind game cannot be won, the reference search finds no win; it fires often
    (395-687 positions a game), also where the capacity relaxation does not, and where only its
    restrictions (module text, "Claim 2") make it lost."""
    rng = random.Random(f"chains-sound-{game}")
    lost = beyond_capacity = by_restrictions = 0
    for i in range(120):
        rules = GAMES[game].reduced(*SIZES[i % len(SIZES)])
        reference = WalkReference(rules)
        for origin, board in walk_positions(rules, rng, 1):
            state = kernel_state(*PlainSuitBlind(origin, rules).abstract(board), rules.ranks)
            if kernel_walk(state, origin, rules) != codes.LOST:
                continue
            assert reference.lost(origin, board), (game, board.to_text(), origin.to_text())
            lost += 1
            beyond_capacity += not kernel_dead(board, origin, rules)
            unrestricted = PlainSuitBlind(origin, rules, restricted=False)
            by_restrictions += unrestricted.winnable(*unrestricted.abstract(board))
    print(game, lost, beyond_capacity, by_restrictions)
    assert lost >= 50 and beyond_capacity >= 5, (lost, beyond_capacity, by_restrictions)


def test_a_real_line_maps_to_positions_the_plain_model_can_win():
    """The claim of the module text along real winning lines: every position of a line the reference
    search finds abstracts to a position the suit-blind game can win.  (Won corpus deals of at least
    4 ranks: the reference search of a lost one finds no line, only spends time.)"""
    checked = ripe = lone = 0
    won = [[d for d in deals(f"small/{game}") if d.won and d.rules.ranks >= 4] for game in CLASSIC]
    for i in range(15):
        d = won[i % len(won)][i // len(won)]
        origin, rules = d.board, d.rules
        line = reference_search(origin, rules)
        model, board = PlainSuitBlind(origin, rules), origin
        for move in line:
            piles, found = model.abstract(board)
            assert model.winnable(piles, found), board.to_text()
            ripe += model.ripe(piles, found) is not None
            lone += model.lone_stays(piles) and any(n + k == 1 for n, k, _ in piles)
            board = apply_move(board, move, rules)
            checked += 1
    print(checked, ripe, lone)
    assert checked >= 200 and ripe >= 20 and lone >= 20, (checked, ripe, lone)
