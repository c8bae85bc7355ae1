"""The capacity relaxation (solver/kernels/capacity.py) against a plain model of it and against the reference search.

The plain model seats the free cards by an explicit bipartite matching
(where the kernel counts) and decides the abstract game by plain recursion;
the reference search decides the real game.  Positions are met on random
walks from random reduced deals, abstracted against the deal.
"""

import random

import numpy as np
import pytest
from harness import KernelPosition, fast_sample, kernel_dead, kernel_verdict, kernel_verdict_of
from naive import WALK_SIZES as SIZES
from naive import PlainModel, WalkReference, prefix_length, rank, walk_positions

from solver.game.deals import random_deal
from solver.game.engine import apply_move
from solver.game.premises import classic
from solver.game.rules import EMPTY_NONE, GAMES
from solver.kernels import capacity as C
from solver.kernels import codes as K
from solver.kernels import dead as D
from solver.search.arrays import engine_move, kernel_rules, state_arrays

CLASSIC = [g for g in GAMES if classic(GAMES[g])]  # the capacity test, walks and beams apply


@pytest.mark.parametrize("game", fast_sample(CLASSIC, ["spanish-patience-ii"]))
def test_kernel_decides_the_abstract_game_as_the_plain_model(game):
    """Same verdict on every abstract position met, lost ones included; every real position fits."""
    rng = random.Random(f"capacity-model-{game}")
    verdicts = {K.WON: 0, K.LOST: 0}
    for i in range(60):
        rules = GAMES[game].reduced(*SIZES[i % len(SIZES)])
        model = None
        for origin, board in walk_positions(rules, rng, 1):
            model = model if model is not None and model.origin == origin.piles else PlainModel(origin, rules)
            prefix, found = model.abstract(board)
            assert model.fits(prefix, found), board.to_text()
            expected = K.WON if model.winnable(prefix, found) else K.LOST
            assert kernel_verdict(board, origin, rules) == expected, (game, board.to_text(), origin.to_text())
            verdicts[expected] += 1
    assert verdicts[K.WON] >= 100 and verdicts[K.LOST] >= 30, verdicts


@pytest.mark.parametrize("game", CLASSIC)
def test_kernel_decides_every_abstract_position_of_a_deal_as_the_plain_model(game):
    """Every abstract position the plain model decides on its way from a deal's root, deep ones
    included: the kernel's safe moves up (it tries no other move where one applies) and its pointless
    leaves (a bottom card never leaves where spaces take nothing) change no verdict.  The plain model
    has neither rule, and a looser safe rule (three ranks above every foundation) fails here."""
    rng = random.Random(f"capacity-every-{game}")
    checked = {K.WON: 0, K.LOST: 0}
    with_safe_move = 0
    for i in range(48):
        rules = GAMES[game].reduced(*SIZES[i % len(SIZES)])
        origin = random_deal(rules, rng)
        model = PlainModel(origin, rules)
        model.winnable(*model.abstract(origin))
        ob, oh, _ = state_arrays(origin, rules)
        places = C.origin_places(ob, oh)
        work = np.zeros(C.CAP_SIZE, dtype=np.int32)
        for (prefix, found), winnable in model.memo.items():
            if not model.fits(prefix, found):
                continue
            expected = K.WON if winnable else K.LOST
            assert kernel_verdict_of(prefix, found, origin, rules) == expected, (game, prefix, found, origin.to_text())
            checked[expected] += 1
            C.abstract_prefixes(
                np.array(prefix, dtype=np.int32), np.array(found, dtype=np.int32), ob, rules.ranks, work
            )
            with_safe_move += C._first_move(work, ob, places, rules.ranks, 4 + 2 * rules.piles) > 0
    assert checked[K.WON] >= 300 and checked[K.LOST] >= 150 and with_safe_move >= 300, (checked, with_safe_move)


@pytest.mark.parametrize("game", fast_sample(CLASSIC, ["bakers-dozen"]))
def test_dead_positions_are_lost(game):
    """Wherever the capacity test says dead, the reference search finds no win; it fires, also where
    the relaxation of solver/kernels/dead.py does not."""
    rng = random.Random(f"capacity-sound-{game}")
    scratch = np.zeros(K.SCRATCH_SIZE, dtype=np.int32)
    dead = beyond_relaxation = 0
    for i in range(150):
        rules = GAMES[game].reduced(*SIZES[i % len(SIZES)])
        reference = WalkReference(rules)
        for origin, board in walk_positions(rules, rng, 1):
            if not kernel_dead(board, origin, rules):
                continue
            assert reference.lost(origin, board), (game, board.to_text(), origin.to_text())
            dead += 1
            b, h, f = state_arrays(board, rules)
            beyond_relaxation += not D.relaxed_dead(b, h, f, kernel_rules(rules), scratch)
    assert dead >= 50 and beyond_relaxation >= 10, (dead, beyond_relaxation)


@pytest.mark.parametrize("game", fast_sample(CLASSIC, ["spanish-patience-ii"]))
def test_a_leaving_card_holding_nothing_proves_more(game):
    """The rule that a card leaving its prefix holds nothing as it moves: positions the abstract game
    without it could win and with it cannot are found, and the reference search finds each lost."""
    rng = random.Random(f"capacity-leaving-{game}")
    newly_dead = 0
    for i in range(150):
        rules = GAMES[game].reduced(*SIZES[i % len(SIZES)])
        loose, reference = None, WalkReference(rules)
        for origin, board in walk_positions(rules, rng, 1):
            loose = loose if loose is not None and loose.origin == origin.piles else PlainModel(origin, rules, False)
            if not kernel_dead(board, origin, rules) or not loose.winnable(*loose.abstract(board)):
                continue
            assert reference.lost(origin, board), (game, board.to_text(), origin.to_text())
            newly_dead += 1
    assert newly_dead >= 50, newly_dead


@pytest.mark.parametrize("game", CLASSIC)
def test_a_move_changes_the_abstraction_exactly_where_abstraction_moved_says(game):
    """The depth-first search tests a child again only after a move that changed a foundation or a prefix
    (``abstraction_moved``, solver/kernels/dead.py's text: "other moves leave its abstraction, so its verdict,
    as the parent's").  Along random walks, a kernel move from pile to pile changes the plain model's
    abstraction (the prefix lengths; the foundations stay) exactly where ``abstraction_moved`` says so."""
    rng = random.Random(f"capacity-moved-{game}")
    seen = {True: 0, False: 0}
    for i in range(40):
        rules = GAMES[game].reduced(*SIZES[i % len(SIZES)])
        origin = random_deal(rules, rng)
        model, (ob, oh, _) = PlainModel(origin, rules), state_arrays(origin, rules)
        board = origin
        for _ in range(25):
            k = KernelPosition(board, rules)
            between_piles = [(s, d) for s, d in k.moves() if s >= 0 and d >= 0]
            if not between_piles:
                break
            src, dst = rng.choice(between_piles)
            card = k.play(src, dst)
            child = apply_move(board, engine_move(src, dst), rules)
            moved = bool(C.abstraction_moved(k.board, k.heights, ob, oh, src, dst, card))
            assert moved == (model.abstract(child) != model.abstract(board)), (game, board.to_text(), (src, dst))
            seen[moved] += 1
            board = child
    assert seen[True] >= 50 and seen[False] >= 50, seen


@pytest.mark.parametrize("game", CLASSIC)
def test_every_pile_met_is_its_prefix_with_free_cards_one_rank_down_on_it(game):
    """The argument of "Seats" (and of suitblind.py's "Origin, prefix, free cards"): a card outside its pile's
    prefix has moved since the origin, so it lies on a card one rank higher -- the prefix top, or a free card
    -- or alone in a pile whose prefix is empty.  Held on every position of random walks (any legal move)."""
    rng = random.Random(f"capacity-shape-{game}")
    free = on_top_of_a_prefix = in_a_space = 0
    for origin, board in walk_positions(GAMES[game].reduced(5, 4), rng, 200):
        for pile, dealt in zip(board.piles, origin.piles, strict=True):
            n = prefix_length(pile, dealt)
            for i in range(n, len(pile)):
                free += 1
                if i == 0:
                    in_a_space += 1  # a moved card at the bottom: into a space, where the rules allow one
                    assert GAMES[game].empty_pile != EMPTY_NONE, board.to_text()
                else:
                    assert rank(pile[i - 1]) == rank(pile[i]) + 1, (i, board.to_text(), origin.to_text())
                    on_top_of_a_prefix += i == n
    assert free >= 1000 and on_top_of_a_prefix >= 100, (free, on_top_of_a_prefix, in_a_space)
    assert (in_a_space > 0) == (GAMES[game].empty_pile != EMPTY_NONE), in_a_space
