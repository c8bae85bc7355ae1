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
from harness import PLAIN, check_agreement, fast_sample, kernel_dead, kernel_state, kernel_walk
from naive import WALK_SIZES as SIZES
from naive import PlainSuitBlind, WalkReference, walk_positions

from solver.game.deals import deal
from solver.game.engine import apply_move, is_solution, reference_search
from solver.game.premises import classic
from solver.game.rules import GAMES
from solver.kernels import capacity as C
from solver.kernels import codes
from solver.kernels import suitblind as H
from solver.search import Budget, Schedule, solve
from solver.search.arrays import WALK_KEYS
from solver.search.root import Root
from solver.search.walks import Walks

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


# solve() with the walk from the first restart on, depth-first runs of 8 positions, and no capacity
# test in the depth-first search (it proves most small deals lost at the root, before any walk).
FORCED_WALKS = Schedule(walks_after=0, run_nodes=8, run_growth="fixed", capacity_nodes=0, streamline_slices=())


@pytest.mark.parametrize("game", CLASSIC)
def test_solve_with_the_walk_agrees_with_the_reference_search(game):
    by_walk = won_by_walk = 0
    for result in check_agreement(deals(f"small/{game}", 100), FORCED_WALKS)["results"]:
        by_walk += result.found_by == "suit-blind"
        won_by_walk += result.found_by == "walk"  # solve() replays every winning line
    assert by_walk >= 5 and won_by_walk >= 5, (by_walk, won_by_walk)


def test_good_measure_82_is_lost_in_the_suit_blind_game():
    """A deal depth-first search alone takes 88 s to prove lost; the walk needs ~100,000 positions."""
    rules = GAMES["good-measure"]
    walks = Walks(Root(deal(rules, 82), rules), 1 << 30)
    walks.advance(60.0)
    assert walks.status == codes.LOST and walks.meta[H.H_NODES] < 1_000_000


def test_a_walk_in_slices_keeps_to_each_slice_s_capacity_work_and_still_proves_good_measure_82_lost():
    """A slice stops its capacity tests at its work limit (the allowance saved by the depth-first search
    may be large, and one slice spent 0.24 s of a 1 s budget on it); tests cut short only prune less."""
    work_limit, spent = 300, []
    rules = GAMES["good-measure"]
    root = Root(deal(rules, 82), rules, Schedule(walk_chunk_work=work_limit))
    root.cmeta[C.C_ALLOWANCE] = 1 << 30  # as after a long depth-first run whose tests gave up little
    walks = Walks(root, 1 << 30)
    while walks.open():
        before = int(root.cmeta[C.C_NODES])
        walks.step()
        spent.append(int(root.cmeta[C.C_NODES]) - before)
    assert walks.status == codes.LOST
    # A test gives up on the position past its limit, so a slice may count one more.
    assert max(spent) <= work_limit + 1 and sum(n >= work_limit for n in spent) >= 3, (max(spent), len(spent))


def _walk_the_games(game: str, number: int) -> Walks:
    rules = GAMES[game]
    walks = Walks(Root(deal(rules, number), rules), 1 << 30)
    while walks.open():
        walks.advance(60.0)
    return walks


def test_good_measure_505_is_lost_once_five_ranks_are_named():
    """Its suit-blind game is won; with the suits of Aces to Fives kept, lost (depth-first search: 52 s)."""
    walks = _walk_the_games("good-measure", 505)
    assert walks.stage == 1 and walks.named() == (5, 0) and walks.status == codes.LOST
    assert walks.positions() < 1_000_000


@pytest.mark.slow
def test_good_measure_560_is_lost_once_nines_to_kings_are_named():
    """Its suit-blind game and its game with Aces to Fives named are won; with the suits of Nines to Kings
    kept, lost after about 1.9M positions (the depth-first search: 31 minutes)."""
    walks = _walk_the_games("good-measure", 560)
    assert walks.stage == 2 and walks.named() == (0, 5) and walks.status == codes.LOST
    assert walks.positions() < 2_500_000


def test_good_measure_538_is_won_by_the_walk_of_the_real_game():
    """A deal the depth-first search and beams leave unknown after 60 s; the real game's walk wins it in
    about 50,000 positions, with a line the reference engine replays."""
    walks = _walk_the_games("good-measure", 538)
    rules = GAMES["good-measure"]
    assert walks.won() and walks.named() == (rules.ranks, 0) and walks.positions() < 200_000
    assert is_solution(deal(rules, 538), walks.winning_line(), rules)


@pytest.mark.slow
def test_a_walk_short_of_memory_gives_up_and_the_deal_stays_unknown():
    schedule = Schedule(walks_after=0, walks_memory=1e-3)  # 2 MiB of 2 GiB: room for 45,000 positions
    rules = GAMES["good-measure"]
    result = solve(deal(rules, 82), rules, Budget(seconds=3), schedule=schedule)
    assert result.verdict == "unknown" and result.found_by != "suit-blind" and result.walk_positions > 0


def test_a_batch_record_says_which_search_proved_a_loss():
    from solver.batch import solve_record

    record = solve_record("good-measure", 82, Budget(seconds=30), Schedule(walks_after=0))
    assert record["verdict"] == "lost" and record["found_by"] == "suit-blind" and record["chain_positions"] > 0
    record = solve_record("good-measure", 1, Budget(seconds=30), Schedule(walks_after=0))  # lost at the root
    assert record["verdict"] == "lost" and record["found_by"] == "depth-first" and record["chain_positions"] == 0


@pytest.mark.parametrize("game", CLASSIC)
def test_solve_with_the_root_capacity_test_agrees_with_the_reference_search(game):
    """The root's capacity test searched to the end (RootTest), from the first restart on, with
    the depth-first search's own capacity tests cut to one abstract position: where it says lost, so does
    the reference search."""
    # Slices of CAP_DEPTH + 8 abstract positions, which go on where the last stopped.
    schedule = Schedule(
        walks_after=0, run_nodes=8, run_growth="fixed", capacity_nodes=1, root_test_slice=C.CAP_DEPTH + 8
    )
    by_root_test = 0
    for result in check_agreement(deals(f"small/{game}", 300), schedule)["results"]:
        by_root_test += result.found_by == "capacity"
        assert result.found_by != "capacity" or result.verdict == "lost", result
    assert by_root_test >= 10, by_root_test


@pytest.mark.slow
def test_bakers_dozen_6174_is_lost_by_the_root_capacity_test():
    """Unknown after 20 minutes of one depth-first run (79 million positions); its root's abstract game
    is lost after some 220,000 abstract positions."""
    from solver.batch import solve_record

    record = solve_record("bakers-dozen", 6174, Budget(seconds=60), PLAIN)  # (the streamlined search's capacity
    # tests fill the root's cache, so with it the depth-first run ends first, 234,000 positions, lost)
    assert record["verdict"] == "lost" and record["found_by"] == "capacity", record
    assert 100_000 < record["root_test_positions"] < 1_000_000, record


def test_one_run_starts_with_the_root_capacity_test():
    """``one_run`` runs the root's capacity test to the end before its depth-first run, which alone had
    not ended Baker's Dozen 6174 after 79 million positions."""
    rules = GAMES["bakers-dozen"]
    result = solve(deal(rules, 6174), rules, Budget(seconds=60), one_run=True)
    assert result.verdict == "lost" and result.found_by == "capacity" and result.states == 0, result
    assert 100_000 < result.root_test_positions < 1_000_000, result
    assert result.memory >= 16 << 19, result  # its table, let go at the end, held 223,739 positions
