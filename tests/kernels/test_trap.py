"""The first pile's trap (solver/kernels/trap.py): the kernel against its plain model (tests/naive.py) on
deals and on positions of random walks, every small position it calls lost searched by the reference
search, its premises each needed, and ``solve()`` saying which rule decided."""

import contextlib
import random
from dataclasses import replace

import corpus
import pytest
from harness import fast_sample
from naive import first_pile_trap_plainly, first_pile_trap_rules_plainly, first_piles_trap_plainly, winnable_by_key

from solver import Budget, solve
from solver.game.board import parse_board
from solver.game.cards import card_text, rank_of, suit_of
from solver.game.deals import deal
from solver.game.engine import apply_move, is_solution, legal_moves, reference_search
from solver.game.premises import first_pile_trap_applies
from solver.game.rules import BUILD_RANK, EMPTY_ANY, EMPTY_KING, GAMES
from solver.kernels.trap import (
    MAX_TRACKED,
    PILES_GAME_POSITIONS,
    first_pile_trap_cards,
    first_pile_trapped,
    first_piles_trap_cards,
)
from solver.search.arrays import state_arrays
from solver.words import LOST, PILES_TRAP, TRAP, WON

TRAP_GAMES = ("cruel", "ripple-fan")


def small_deck(game: str, ranks: int):
    """``game`` on a deck of Ace..``ranks``, dealt four to a pile as the full game is."""
    rules = GAMES[game]
    return rules.reduced(ranks, -(-(4 * ranks - rules.founded) // 4))


def trapped(board, rules) -> bool:
    """The kernel's verdict, where the rules let the kernels use it."""
    piles, heights, found = state_arrays(board, rules)
    return first_pile_trap_applies(rules) and bool(first_pile_trapped(piles, heights, found, rules.ranks))


def as_cards(mask) -> frozenset[int]:
    """The cards of a kernel's uint64 of cards, bit ``card``."""
    return frozenset(card for card in range(64) if int(mask) >> card & 1)


def trap_cards(board, rules) -> frozenset[int]:
    """The cards the kernel's first pile's trap keeps down, where the rules let the kernels use it."""
    piles, heights, found = state_arrays(board, rules)
    cards = as_cards(first_pile_trap_cards(piles, heights, found, rules.ranks))
    return cards if first_pile_trap_applies(rules) else frozenset()


def walk(board, rules, rng: random.Random, steps: int):
    """``board`` and the positions of a random walk from it (redeals are moves like any other)."""
    yield board
    for _ in range(steps):
        moves = legal_moves(board, rules)
        if not moves:
            return
        board = apply_move(board, rng.choice(moves), rules)
        yield board


def walks_searched(rules, deals: int, rng: random.Random, fires) -> tuple[int, int, int]:
    """Deals 1..``deals`` and random walks from them: at the first position where ``fires`` (a trap) calls
    it lost, the reference search finds no win, or runs out of budget (then the walk is left).  How many
    positions fired, how many were searched to the end, and how many of those were met mid-play."""
    fired = searched = mid_play = 0
    for number in range(1, deals + 1):
        for step, board in enumerate(walk(deal(rules, number), rules, rng, 12)):
            if not fires(board, rules):
                continue
            fired += 1
            try:
                assert reference_search(board, rules, max_states=100_000) is None, (number, board.to_text(rules))
            except RuntimeError:  # past the reference's budget: nothing to compare, on this walk
                break
            searched += 1
            mid_play += step > 0
            break  # the walk's later positions come from a lost one
    return fired, searched, mid_play


def moves_needed(rules, deals: int, rng: random.Random, fires, fires_without) -> tuple[int, int]:
    """Walk deals 1 to ``deals``; at the first position of each walk where a game short of a move
    (``fires_without``) fires and the whole game (``fires``) does not, ask the reference search (50,000
    positions) for a win.  Until 3 such wins: how many positions were asked, and how many were won (each a
    position the short game wrongly calls lost)."""
    wrong = needed = 0
    for number in range(1, deals + 1):
        for board in walk(deal(rules, number), rules, rng, 20):
            if fires(board, rules) or not fires_without(board, rules):
                continue
            needed += 1
            with contextlib.suppress(RuntimeError):  # past the reference's budget: nothing to count
                wrong += reference_search(board, rules, max_states=50_000) is not None
            break
        if wrong >= 3:
            break
    return needed, wrong


def graphs_searched(rules, deals: int, fires) -> tuple[int, int]:
    """Every position of deals 1..``deals``' whole position graphs, each with its fate from the graph
    (``winnable_by_key``): wherever ``fires`` calls it lost, no win is reachable.  How many positions
    fired, and how many there were."""
    fired = positions = 0
    for number in range(1, deals + 1):
        fate = winnable_by_key(deal(rules, number), rules, lambda position: position, limit=60_000)
        if fate is None:
            continue
        for board, winnable in fate.items():
            if fires(board, rules):
                fired += 1
                assert not winnable, (number, board.to_text(rules))
        positions += len(fate)
    return fired, positions


def corpus_fired(name: str, fires) -> int:
    """The shared corpus's deals ``name`` (tests/corpus.py) where ``fires`` calls the deal lost, each lost
    by the reference verdict stored there; how many."""
    fired = 0
    for deal_ in corpus.deals(name):
        if fires(deal_.board, deal_.rules):
            fired += 1
            assert not deal_.won, (name, deal_.board.to_text(deal_.rules))
    return fired


@pytest.mark.parametrize(
    "game, ranks", fast_sample([(g, r) for r in (4, 5, 13) for g in TRAP_GAMES], [("cruel", 4), ("ripple-fan", 5)])
)
def test_the_kernel_agrees_with_the_plain_model(game, ranks):
    rules = small_deck(game, ranks)
    rng = random.Random(ranks)
    fired = seen = 0
    for number in range(1, 401):
        for board in walk(deal(rules, number), rules, rng, 30):
            plain = first_pile_trap_plainly(board, rules)
            assert trap_cards(board, rules) == plain, (game, ranks, number, board.to_text(rules))
            assert trapped(board, rules) == bool(plain)
            fired += bool(plain)
            seen += 1
    assert fired >= 20, (fired, seen)  # both answers, often enough to mean something


def test_the_premises_agree_with_the_plain_model():
    variants = [small_deck(g, r) for g in GAMES for r in (4, 5, 13)] + [GAMES[g].reduced(6, 4) for g in GAMES]
    for rules in variants:
        assert first_pile_trap_applies(rules) == first_pile_trap_rules_plainly(rules), rules.name
    assert {g for g in GAMES if first_pile_trap_applies(GAMES[g])} == set(TRAP_GAMES)


@pytest.mark.parametrize(
    "game, ranks, deals",
    [("cruel", 5, 150), pytest.param("ripple-fan", 5, 150, marks=pytest.mark.slow), ("cruel", (5, 3), 150),
     ("ripple-fan", (5, 4), 150),
     pytest.param("cruel", 6, 100, marks=pytest.mark.slow),
     pytest.param("ripple-fan", 6, 90, marks=pytest.mark.slow)],
)  # fmt: skip
def test_every_position_the_trap_calls_lost_has_no_win(game, ranks, deals):
    """At the deal and along random walks: a trap found mid-play is as lost as one dealt.  (5, 3) and (5, 4):
    decks dealt with more than four a pile (five or six), where the trap may fire only once cards have gone
    up."""
    rules = small_deck(game, ranks) if isinstance(ranks, int) else GAMES[game].reduced(*ranks)
    fired, searched, mid_play = walks_searched(rules, deals, random.Random(str(ranks) + game), trapped)
    assert searched >= 6 and mid_play >= 2, (fired, searched, mid_play)


def test_the_trap_says_nothing_where_the_first_pile_may_get_five():
    """Cruel on 6 ranks and 4 piles deals the first pile six, and a redeal five: the talon's fifth card
    lands on the King.  Deal 17 is won (the reference search's line replays), though the pattern is there."""
    rules = GAMES["cruel"].reduced(6, 4)
    board = deal(rules, 17)
    king, *below = reversed(board.piles[0])  # top first
    assert rank_of(king) == rules.ranks and board.cards_in_play() > 4 * rules.piles
    assert any(
        suit_of(card) == suit_of(king) and rules.ranks - 1 - rank_of(card) + depth <= 3
        for depth, card in enumerate(below, start=1)
    )  # the pattern is there ...
    line = reference_search(board, rules, max_states=200_000)
    assert line is not None and is_solution(board, line, rules)  # ... the deal is won ...
    assert not trapped(board, rules) and not first_pile_trap_plainly(board, rules)  # ... and the trap is silent
    assert solve(board, rules).verdict == WON


CRUEL_WITH_ACES_IN_PLAY = [
    # 49 cards in play on 12 piles (AS not up): a redeal deals the first piles five.  KD over TD would trap
    # TD with four to a pile; one redeal puts 8C on top of the first pile, and the deal is won.
    "Foundations: C-A D-A H-A S-0\nRedeals: unlimited\nTC 3S 8D TD KD\n6H 2D 4C 5H\n8S 7D 9C QH\nKC 5S 2H 9H\n"
    "JD 7S QD 3D\n9S 8H 7C 4S\n2S JH 3H 5C\n3C 4D 5D AS\n2C QC 9D 6C\nQS 6S KS TS\n4H 6D JS KH\nTH JC 7H 8C\n",
    # all 52 in play
    "Redeals: unlimited\n9D AD 2D QH KH\nTD 6H 4D 8H QC\nJD 3S 7H 8D JS\n6C 4H QD 4C 3H\n6S 9H 2C TH\nKS 6D 9C 8C\n"
    "7S KD JH AS\n5C JC 3D 5H\n7D 2H 4S 8S\nAH 3C 7C QS\nKC 9S 5S TC\nTS 5D 2S AC\n",
]  # found by a cold review, which showed the trap wrong here while it read four a pile off the deck


@pytest.mark.parametrize("text", CRUEL_WITH_ACES_IN_PLAY)
def test_the_trap_says_nothing_with_more_than_four_a_pile_in_play(text):
    rules = GAMES["cruel"]
    board = parse_board(text).validate(rules)
    assert board.cards_in_play() > 4 * rules.piles
    assert not trapped(board, rules) and not first_pile_trap_plainly(board, rules)
    result = solve(board, rules, Budget(seconds=60))
    assert result.verdict == WON and is_solution(board, result.moves, rules)


def test_the_trap_says_nothing_on_a_small_board_of_five_a_pile():
    """The review's small counterexample: 5 ranks on 4 piles, every card in play (20 > 16); won."""
    rules = GAMES["cruel"].reduced(5, 4)
    board = parse_board("Redeals: unlimited\n5C 4C AD 2C 3C\n4S AC 2D 4D 5S\n3H AS 4H AH 3S\n5D 3D 2S 5H 2H\n")
    board = board.validate(rules)
    assert not trapped(board, rules) and not first_pile_trap_plainly(board, rules)
    line = reference_search(board, rules, max_states=200_000)
    assert line is not None and is_solution(board, line, rules)
    assert solve(board, rules).verdict == WON


def test_the_trap_needs_each_premise():
    """On a deal where the trap fires, any one premise broken silences it."""
    rules = GAMES["cruel"]
    number = next(n for n in range(1, 1000) if trapped(deal(rules, n), rules))
    board = deal(rules, number)
    broken = {
        "worrying back": {"worrying_back": True},
        "building both ways": {"both_ways": True},
        "runs": {"sequence_moves": True},
        "any card into a space": {"empty_pile": EMPTY_ANY},
        "a King into a space": {"empty_pile": EMPTY_KING},
        "by rank": {"build": BUILD_RANK},
        "two decks": {"decks": 2},
        "foundations down": {"foundations_down": True},
        "face-down cards": {"face_down_rows": (0,)},
        "foundations by alternate colour": {"foundations_alternate": True},
    }
    for premise, fields in broken.items():
        changed = replace(rules, **fields)
        assert not first_pile_trap_applies(changed), premise
        assert not first_pile_trap_plainly(board, changed), premise
    for name in ("unusual", "indefatigable", "perseverance", "bakers-dozen"):
        other = GAMES[name]
        assert not any(trapped(deal(other, n), other) for n in range(1, 301)), name


@pytest.mark.parametrize("game", TRAP_GAMES)
def test_solve_names_the_trap(game):
    """A deal trapped at the deal is lost at once, and ``found_by`` says why; one that is not goes on to
    the searches (a win here, replayed by the engine)."""
    rules = GAMES[game]
    trapped_deals = [n for n in range(1, 400) if trapped(deal(rules, n), rules)]
    assert trapped_deals
    board = deal(rules, trapped_deals[0])
    result = solve(board, rules)
    assert (result.verdict, result.found_by, result.positions) == (LOST, TRAP, 0)
    assert "first pile" in result.explanation()
    assert set(result.trapped) == first_pile_trap_plainly(board, rules) != set()  # the cards it names
    assert result.explanation().endswith("never up: " + " ".join(card_text(card) for card in result.trapped))
    free = next(n for n in range(1, 400) if n not in trapped_deals)
    assert solve(deal(rules, free), rules).found_by != TRAP


@pytest.mark.parametrize("name", [f"{kind}/{game}" for kind in ("small", "pysolfc-strict") for game in TRAP_GAMES])
def test_every_corpus_deal_the_trap_calls_lost_is_lost_by_the_reference(name):
    """The shared corpus (tests/corpus.py): small deals with redeals whose reference verdicts are stored.  Where
    the trap fires at the deal, the reference search found no win; it fires on some of them."""
    fired = corpus_fired(name, trapped)
    assert fired >= 5, fired


@pytest.mark.parametrize("move", ["put", "cut"])
@pytest.mark.parametrize("game", TRAP_GAMES)
def test_each_move_of_the_first_pile_s_game_is_needed(game, move):
    """Leave ``put`` or ``cut`` out of the game and it calls lost positions the reference search wins: the
    tests above would see such a mistake, and the positions they search need both moves."""
    needed, wrong = moves_needed(
        small_deck(game, 5), 300, random.Random(move), lambda board, rules: bool(first_pile_trap_plainly(board, rules)),
        lambda board, rules: bool(first_pile_trap_plainly(board, rules, **{move: False})),
    )  # fmt: skip
    assert wrong >= 3, (needed, wrong)


@pytest.mark.parametrize("game, shape, deals", [("cruel", (4, 3), 150), ("ripple-fan", (4, 4), 6)])
def test_the_trap_never_fires_on_a_position_that_can_be_won(game, shape, deals):
    """Every position of small deals' whole position graphs, each with its fate from the graph
    (``winnable_by_key``): wherever the trap fires, no win is reachable -- the claim at every later
    position, not only at the deals."""
    fired, positions = graphs_searched(GAMES[game].reduced(*shape), deals, trapped)
    assert fired >= 500 and positions >= 5_000, (fired, positions)


# The first piles' game (solver/kernels/trap.py, ``first_piles_trap_cards``): the first pile's trap grown to two,
# three and four piles, which the root tries after the first pile's.


def piles_trap_cards(board, rules, tracked: int, most: int = PILES_GAME_POSITIONS) -> frozenset[int]:
    """The cards the kernel's first piles' game keeps down, where the rules let the kernels use it."""
    piles, heights, found = state_arrays(board, rules)
    cards = as_cards(first_piles_trap_cards(piles, heights, found, rules.ranks, tracked, most))
    return cards if first_pile_trap_applies(rules) else frozenset()


def piles_trapped_plainly(board, rules, tracked: int, most: int) -> frozenset[int] | None:
    """The plain model's trapped cards; None where its game has more than ``most`` positions (the
    kernel's then gives up and traps none)."""
    try:
        return first_piles_trap_plainly(board, rules, tracked, limit=most)
    except RuntimeError:
        return None


def any_piles_trapped(board, rules) -> bool:
    return any(piles_trap_cards(board, rules, tracked) for tracked in range(2, min(MAX_TRACKED, rules.piles) + 1))


@pytest.mark.parametrize(
    "game, ranks", fast_sample([(g, r) for r in (4, 5, 13) for g in TRAP_GAMES], [("cruel", 4), ("cruel", 5)])
)
def test_the_piles_game_kernel_agrees_with_the_plain_model(game, ranks):
    """With the game cut short at 2,000 positions, both, where the plain model is slow."""
    rules = small_deck(game, ranks)
    rng = random.Random(f"piles {ranks}")
    fired = seen = 0
    for number in range(1, {4: 151, 5: 81, 13: 61}[ranks]):
        for board in walk(deal(rules, number), rules, rng, 15):
            for tracked in range(1, min(MAX_TRACKED, rules.piles) + 1):
                plain = piles_trapped_plainly(board, rules, tracked, 2_000)
                kernel = piles_trap_cards(board, rules, tracked, 2_000)
                assert kernel == (plain or frozenset()), (game, ranks, number, tracked, board.to_text(rules))
                fired += bool(kernel)
                seen += plain is not None
    assert fired >= 20 and seen >= 1000, (fired, seen)


@pytest.mark.parametrize(
    "game, shape, deals",
    [("cruel", (5, 4), 200), pytest.param("ripple-fan", (5, 5), 120, marks=pytest.mark.slow), ("cruel", (5, 3), 150),
     ("ripple-fan", (5, 4), 150),
     pytest.param("cruel", (6, 5), 120, marks=pytest.mark.slow),
     pytest.param("ripple-fan", (6, 6), 40, marks=pytest.mark.slow)],
)  # fmt: skip
def test_every_position_the_piles_game_calls_lost_has_no_win(game, shape, deals):
    """At the deal and along random walks, searched to the end by the reference search."""
    rules = GAMES[game].reduced(*shape)
    fired, searched, mid_play = walks_searched(rules, deals, random.Random(f"piles {shape} {game}"), any_piles_trapped)
    assert searched >= 6 and mid_play >= 2, (fired, searched, mid_play)


@pytest.mark.parametrize("game, shape, deals", [("cruel", (4, 3), 150), ("ripple-fan", (4, 4), 6)])
def test_the_piles_game_never_fires_on_a_position_that_can_be_won(game, shape, deals):
    """Every position of small deals' whole position graphs, with its fate from the graph."""
    fired, positions = graphs_searched(GAMES[game].reduced(*shape), deals, any_piles_trapped)
    assert fired >= 500 and positions >= 5_000, (fired, positions)


@pytest.mark.parametrize("name", [f"{kind}/{game}" for kind in ("small", "pysolfc-strict") for game in TRAP_GAMES])
def test_every_corpus_deal_the_piles_game_calls_lost_is_lost_by_the_reference(name):
    fired = corpus_fired(name, any_piles_trapped)
    assert fired >= 5, fired


@pytest.mark.parametrize("move", ["onto", "put", "redeal"])
@pytest.mark.parametrize("game", TRAP_GAMES)
def test_each_move_of_the_first_piles_game_is_needed(game, move):
    """Leave a move out of the game and it calls lost positions the reference search wins."""
    needed, wrong = moves_needed(
        GAMES[game].reduced(5, 4), 400, random.Random(f"piles {move}"), any_piles_trapped,
        lambda board, rules: any(
            first_piles_trap_plainly(board, rules, tracked, **{move: False}) for tracked in (2, 3, 4)
        ),
    )  # fmt: skip
    assert wrong >= 3, (needed, wrong)


def test_solve_names_the_piles_trap():
    """Cruel 1058: the Ten of clubs over the Four and Six of diamonds on the first pile, the Five of diamonds
    over the Jack and Nine of clubs on the second -- lost at the deal, where the first pile alone shows
    nothing (its depth-first search ran 30 minutes, 786 million positions, without an end)."""
    rules = GAMES["cruel"]
    board = deal(rules, 1058)
    assert not trapped(board, rules) and piles_trap_cards(board, rules, 2)
    result = solve(board, rules)
    assert (result.verdict, result.found_by, result.positions) == (LOST, PILES_TRAP, 0)
    assert result.explanation().startswith("some cards of the first few piles can never come up")
    assert result.explanation().endswith("never up: 3D 3H 4D 5D 6D 9C TC JC")  # the two piles' eight cards
