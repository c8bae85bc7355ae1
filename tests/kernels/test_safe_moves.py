"""Three pruning rules of the depth-first search held to their plain models (tests/naive.py).

The safe foundation moves (``play_safe_moves``), the moves generated once no redeal is left, the
lone-card rule among them (``generate_moves``), and the greedy dead test (``relaxed_dead``) of
solver/kernels/safe_moves.py, moves.py and dead.py, each against a plain model written from its
statement in that module's text, on positions of every game (and worrying back, and random variants)
that random legal move sequences reach from small random deals and from whole deals; with redeals left and spent.  Each
test also counts where its rule fires and where it holds back, and asserts that both happen, so that
agreement means something.  (test_kernel_moves.py checks the moves against the engine's more
loosely; test_agreement.py checks the rules end to end.)
"""

import itertools
import random
from collections import Counter
from dataclasses import replace
from functools import cache

import pytest
from corpus import boards
from harness import KernelPosition
from naive import (
    SAFE_SUIT,
    first_pile_trap_plainly,
    goes_up,
    kernel_moves_plainly,
    lone_moves,
    quotient,
    relaxed_dead_plainly,
    safe_moves_plainly,
    safe_rule_plainly,
)

from solver.game.board import parse_board
from solver.game.deals import deal, random_deal
from solver.game.engine import apply_move, legal_moves
from solver.game.rules import EMPTY_ANY, EMPTY_KING, GAMES, with_pysolfc, with_worrying_back
from solver.kernels.codes import M_LONE
from solver.search.arrays import engine_move

RULES = {
    **GAMES,
    **{f"{g}-worrying-back": with_worrying_back(GAMES[g]) for g in ("bakers-dozen", "portuguese-solitaire")},
    **{f"{g}-pysolfc": with_pysolfc(GAMES[g]) for g in GAMES},
}
# (ranks, piles) of the small deals; piles of two or three cards soon hold one, where the lone-card rule speaks.
SIZES = [(4, 3), (4, 4), (5, 4), (5, 5), (6, 4), (7, 5), (4, 8), (5, 8)]
FEW_PILES = [(4, 2), (5, 3), (6, 3), (5, 4)]  # building both ways
TWO_DECK_SIZES = [(3, 3), (4, 4), (4, 6), (5, 8), (3, 8), (4, 12)]


def _walk(board, rules, rng: random.Random, steps: int, up: float):
    """``board`` and the positions a random legal move sequence meets from it, a foundation move chosen
    with chance ``up`` where there is one (so that walks reach late positions, where piles run short)."""
    yield board
    for _ in range(steps):
        moves = legal_moves(board, rules)
        if not moves:
            return
        ups = [m for m in moves if m.target is None and not m.is_redeal]
        board = apply_move(board, rng.choice(ups if ups and rng.random() < up else moves), rules)
        yield board


POSITIONS = 1200  # each game's, at the least: twice as many where it has redeals, POSITIONS // 2 of them with none left


@cache
def positions(name: str) -> list:
    """(rules, position) pairs: walks from whole deals of the game and from small random deals, every
    other one with no redeal left (where the game has redeals); for "variants", from the corpus's random
    variants of Baker's Dozen."""
    rng = random.Random(f"naive-rules-{name}")
    if name == "variants":
        starts = ((rules, board, 30) for rules, board in boards("variants"))
    else:
        rules = RULES[name]
        sizes = TWO_DECK_SIZES if rules.decks > 1 else FEW_PILES if rules.both_ways else SIZES
        small = (rules.reduced(*sizes[i % len(sizes)]) for i in itertools.count())
        whole = [(rules, deal(rules, number), 120) for number in (1, 2, 3)]
        starts = itertools.chain(whole, ((r, random_deal(r, rng), 50) for r in small))
    found, spent = [], 0
    for i, (rules, board, steps) in enumerate(starts):
        if rules.redeals and i % 2:
            board = replace(board, redeals=0)
        # Foundations by alternate colour: the game the kernels play instead (naive.quotient).
        walk = [quotient(b, rules)[::-1] for b in _walk(board, rules, rng, steps, (0.2, 0.5, 0.8)[i % 3])]
        found += walk
        spent += sum(b.redeals == 0 for _, b in walk)
        if len(found) >= POSITIONS * (2 if rules.redeals else 1) and spent >= POSITIONS // 2:
            break
    return found


NAMES = [*RULES, "variants"]


def safe_counts(name: str) -> Counter:
    """Hold ``play_safe_moves`` to the plain rule on the positions of ``name``; count what happened."""
    seen = Counter()
    for rules, board in positions(name):
        k = KernelPosition(board, rules)
        played = k.play_safe_moves()
        # The kernel never plays the last card of a foundation by SAFE_NO_HOSTS (naive.is_safe_plainly).
        expected, cards = safe_moves_plainly(board, rules, last_cards=False)
        assert (k.engine_board(), played) == (expected, len(cards)), (name, rules, board.to_text(rules))
        seen["positions"] += 1
        seen["fired"] += played > 0
        seen["last card missed"] += len(safe_moves_plainly(board, rules)[1]) > played
        playable = any(goes_up(expected, pile[-1], rules) for pile in expected.piles if pile)
        if safe_rule_plainly(rules) is None:
            seen["no rule, a card may go up"] += playable
        elif board.redeals != 0:
            seen["a redeal left, a card may go up"] += playable
        else:
            seen["a card may go up, not safe"] += playable
    return seen


@pytest.mark.parametrize("name", NAMES)
def test_safe_moves_are_the_plain_rule_s(name):
    """``play_safe_moves`` plays exactly the cards the plain rule lets go up, to its fixed point, and
    leaves the position the engine reaches by playing them."""
    seen = safe_counts(name)
    rules = RULES.get(name, GAMES["bakers-dozen"])
    assert seen["positions"] >= POSITIONS, seen
    if name == "variants":
        assert seen["fired"] >= 50 and seen["no rule, a card may go up"] >= 20, seen
        assert seen["a card may go up, not safe"] >= 20, seen
    elif safe_rule_plainly(rules) is None:
        assert seen["no rule, a card may go up"] >= 100, seen
    else:
        assert seen["fired"] >= 100, seen
        assert seen["a redeal left, a card may go up"] >= 20 or not rules.redeals, seen
        # Building by suit with one deck, every card a foundation takes is safe: nothing to hold back.
        always = safe_rule_plainly(rules) == SAFE_SUIT and rules.decks == 1
        assert seen["a card may go up, not safe"] >= 20 or always, seen


def moves_counts(name: str) -> Counter:
    """Hold ``generate_moves`` to the plain rules on the positions of ``name``; count what happened."""
    seen = Counter()
    for rules, board in positions(name):
        k = KernelPosition(board, rules)
        kernel = [engine_move(s, d) for s, d in k.moves()]
        assert len(set(kernel)) == len(kernel), (name, kernel, board.to_text(rules))
        expected = kernel_moves_plainly(board, rules)
        assert set(kernel) == expected, (name, set(kernel) ^ expected, rules, board.to_text(rules))
        lone = lone_moves(board, rules)
        sources = {m.source for m in lone if board.piles[m.source] not in board.piles[: m.source]}  # (twins skipped)
        assert k.meta[M_LONE] == len(sources), (name, board.to_text(rules))
        seen["positions"] += 1
        seen["lone rule fired"] += bool(lone)
        lone_onto_a_card = any(
            m.source >= 0 and m.target is not None and board.piles[m.target] and len(board.piles[m.source]) == 1
            for m in expected
        )
        seen["a lone card kept its moves"] += lone_onto_a_card
        if lone_onto_a_card and board.redeals == 0 and rules.empty_pile == EMPTY_KING:
            seen["a King above another card keeps them"] += 1
    return seen


@pytest.mark.parametrize("name", NAMES)
def test_generated_moves_are_the_plain_rules_s(name):
    """``generate_moves`` writes each move the plain rules keep once, and no other: the lone-card rule's
    removals exactly (counted in ``meta[M_LONE]`` once per pile), no more."""
    seen = moves_counts(name)
    rules = RULES.get(name)
    assert seen["positions"] >= POSITIONS, seen
    if name == "variants":
        assert seen["lone rule fired"] >= 20 and seen["a lone card kept its moves"] >= 20, seen
    elif rules.worrying_back or rules.sequence_moves or rules.empty_pile == EMPTY_ANY:
        assert seen["lone rule fired"] == 0 and seen["a lone card kept its moves"] >= 20, seen
    else:
        assert seen["lone rule fired"] >= 30, seen
        assert seen["a lone card kept its moves"] >= 20 or not rules.redeals, seen  # with a redeal left
        assert seen["a King above another card keeps them"] >= 10 or rules.empty_pile != EMPTY_KING, seen


def dead_counts(name: str) -> Counter:
    """Hold ``relaxed_dead`` to the plain relaxed game on the positions of ``name``; count what happened."""
    seen = Counter()
    for rules, board in positions(name):
        k = KernelPosition(board, rules)
        dead = relaxed_dead_plainly(board, rules)
        assert k.relaxed_dead() == dead, (name, dead, rules, board.to_text(rules))
        applies = board.redeals == 0 and not (rules.sequence_moves and rules.both_ways)
        trapped = bool(first_pile_trap_plainly(board, rules))  # the other dead test (solver/kernels/trap.py)
        assert k.dead_here() == ((applies and dead) or trapped), (name, rules, board.to_text(rules))
        seen["positions"] += 1
        seen["dead"] += dead
        seen["dead where it applies"] += applies and dead
    return seen


@pytest.mark.parametrize("name", NAMES)
def test_relaxed_dead_is_the_plain_relaxed_game_s(name):
    """``relaxed_dead`` decides as the plain relaxed game's fixed point, and the search applies it
    (``dead_here``) exactly where its proof holds: no redeal left, and no runs where building goes both ways
    (beside the first pile's trap, held to its own plain model)."""
    seen = dead_counts(name)
    assert seen["positions"] >= POSITIONS and seen["dead where it applies"] >= 20, seen
    assert seen["positions"] - seen["dead"] >= 100, seen


def test_with_worrying_back_a_card_up_hosts_in_the_relaxed_game():
    """Where it matters, which walks rarely meet (no position of the walks above): 2S, on AS, has no host
    in the tableau, so the relaxed game is stuck; with worrying back, 3C, 3D and 3H are up and count as
    hosts, so 2S leaves and the rest follow.  (The real game is lost all the same: nothing hosts a Three.)"""
    rules = GAMES["bakers-dozen"].reduced(3, 3)
    board = parse_board("Foundations: C-3 D-3 H-3\n3S AS 2S\n-\n-\n").validate(rules)
    for game, dead in ((rules, True), (with_worrying_back(rules), False)):
        assert relaxed_dead_plainly(board, game) == dead == KernelPosition(board, game).relaxed_dead()
