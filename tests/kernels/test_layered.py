"""The layered search (solver/kernels/layered.py): its encoding, its progress measure and its verdicts.

Random walks check the premises of its proof move by move: the encoding gives back the position
exactly, the hard length of a pile never grows, and progress never falls.  Then its verdicts are held
to the plain reference search on the shared corpus and on small spent Cruel and Ripple Fan deals (by
suit), with every winning line replayed.  (What the driver refuses, and the CLI, are in
tests/search/test_layered.py.)
"""

import random
from dataclasses import replace

import numpy as np
import pytest
from corpus import deals
from harness import check_agreement, fast_sample

from solver.game.board import Board
from solver.game.deals import random_deal
from solver.game.engine import apply_move, legal_moves, reference_search
from solver.game.rules import GAMES
from solver.kernels import layered as L
from solver.search import LOST, WON, Budget, solve
from solver.search.arrays import kernel_rules, state_arrays
from solver.search.layered import can_search
from solver.search.result import LAYERS


def _progress(board, origin, rules) -> tuple[int, list[int]]:
    """P and the hard lengths, written plainly from the module text."""
    hard = []
    for pile, dealt in zip(board.piles, origin.piles, strict=True):
        n = 0
        while n < min(len(pile), len(dealt)) and pile[n] == dealt[n]:
            n += 1
        j = n
        while j >= 2 and rules.can_host(dealt[j - 2], dealt[j - 1]):
            j -= 1
        hard.append(j)
    up = sum(board.foundations)
    return sum(len(d) for d in origin.piles) - sum(hard) + up, hard


def _walk_checks(rules, origin, steps: int, rng: random.Random) -> int:
    """Walk at random from ``origin``, checking the encoding and the progress claims; returns moves made."""
    build = kernel_rules(rules).build
    o_board, o_heights, _ = state_arrays(origin, rules)
    board, made = origin, 0
    last_p, last_hard = _progress(board, origin, rules)
    for _ in range(steps):
        b, h, f = state_arrays(board, rules)
        row, hard = np.zeros(L.WORDS, np.uint64), np.zeros(b.shape[0], np.int64)
        p = L.encode(b, h, f, o_board, o_heights, build, hard, row)
        plain_p, plain_hard = _progress(board, origin, rules)
        assert p == plain_p and hard.tolist() == plain_hard
        assert p >= last_p and all(now <= before for now, before in zip(plain_hard, last_hard, strict=True))
        last_p, last_hard = p, plain_hard
        b2, h2, f2 = np.zeros_like(b), np.zeros_like(h), np.zeros_like(f)
        in_play = L.decode(row, o_board, rules.ranks, b2, h2, f2)
        assert in_play == board.cards_in_play()
        assert (h2 == h).all() and (f2 == f).all()
        assert all((b2[q, : h[q]] == b[q, : h[q]]).all() for q in range(b.shape[0]))
        moves = legal_moves(board, rules)
        if not moves:
            break
        board = apply_move(board, rng.choice(moves), rules)
        made += 1
    return made


@pytest.mark.parametrize("game", ["good-measure", "bakers-dozen", "cruel", "ripple-fan"])
def test_encoding_and_progress_along_random_walks(game):
    """Whole deals and small ones: decode(encode(x)) is x, hard lengths never grow, P never falls."""
    rules = replace(GAMES[game], redeals=0)
    rng = random.Random(f"layers-{game}")
    made = 0
    for _ in range(10):
        made += _walk_checks(rules, random_deal(rules, rng), 120, rng)
    small = rules.reduced(4, 4)
    for _ in range(50):
        made += _walk_checks(small, random_deal(small, rng), 40, rng)
    assert made >= 250  # spent Ripple Fan deals end soonest


def test_putting_a_card_back_on_its_dealt_host_keeps_progress():
    """A prefix card that builds on the card beneath it may leave and come back: P stays (module text)."""
    rules = GAMES["bakers-dozen"].reduced(4, 3)
    rest = tuple(c for c in range(16) if c not in (15, 10, 12))
    origin = Board(piles=((15, 10), (12,), rest)).validate(rules)  # 3H dealt on 4S; 4C alone
    away = apply_move(origin, next(m for m in legal_moves(origin, rules) if m.source == 0 and m.target == 1), rules)
    back = apply_move(away, next(m for m in legal_moves(away, rules) if m.source == 1 and m.target == 0), rules)
    assert back == origin
    assert _progress(away, origin, rules)[0] == _progress(origin, origin, rules)[0]


SETS = {"small/good-measure": 250, "small/bakers-dozen": 250, "larger/good-measure": 40, "larger/bakers-dozen": 40}


@pytest.mark.parametrize("name", fast_sample(list(SETS), ["small/good-measure"]))
def test_layered_search_agrees_with_reference_search(name):
    counts = check_agreement(deals(name, SETS[name]), layered=True)
    assert counts[WON] >= 15 and counts[LOST] >= 5, counts
    assert all(r.found_by == LAYERS for r in counts["results"] if r.positions > 0)


def test_layered_search_agrees_on_variants():
    chosen = [d for d in deals("variants") if can_search(d.rules, d.board)]
    counts = check_agreement(chosen, layered=True)
    assert counts[WON] >= 10 and counts[LOST] >= 10, counts


@pytest.mark.parametrize("game", ["cruel", "ripple-fan"])
def test_layered_search_builds_by_suit(game):
    """Spent deals of the games that build by suit, against the reference search."""
    rules = replace(GAMES[game], redeals=0).reduced(4, 6)  # some won, some lost (with no Aces founded, Ripple
    # Fan loses nearly every deal of more ranks)
    rng = random.Random(f"layers-suit-{game}")
    verdicts = {WON: 0, LOST: 0}
    for _ in range(80):
        board = random_deal(rules, rng)
        won = reference_search(board, rules) is not None
        result = solve(board, rules, Budget(seconds=None), layered=True)
        assert result.verdict == (WON if won else LOST), board.to_text()
        verdicts[result.verdict] += 1
    assert verdicts[WON] >= 10 and verdicts[LOST] >= 10, verdicts
