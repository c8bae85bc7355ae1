"""The positions on which the kernels' pruning rules are held to their plain models (tests/naive.py):
the safe moves (tests/kernels/test_safe_moves.py), the moves generated with the lone-card rule
(tests/kernels/test_moves.py) and the greedy dead test (tests/kernels/test_dead.py).

Positions of every game (and worrying back, PySolFC's rules, and random variants) that random legal
move sequences reach from small random deals and from whole deals, with redeals left and spent."""

import itertools
import random
from dataclasses import replace
from functools import cache

from corpus import boards
from naive import quotient

from solver.game.deals import deal, random_deal
from solver.game.engine import apply_move, legal_moves
from solver.game.rules import GAMES, with_pysolfc, with_worrying_back

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
