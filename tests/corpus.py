"""The shared corpus of small deals, with the reference search's verdict on each.

The agreement tests hold the solver to the reference search
(:func:`solver.game.engine.reference_search`, which prunes nothing) on these
deals, under every schedule they try.  The deals are made here from fixed
seeds; the reference's verdicts are in ``corpus.txt`` beside this file,
computed once by

    python tests/corpus.py            # every set (about 4 minutes)
    python tests/corpus.py NAME ...   # these sets only

since searching thousands of deals exhaustively in plain Python is most of
what the tests would otherwise spend.  ``tests/test_corpus.py`` checks that
the file still matches the deals (a digest of each set's boards) and
searches a sample of them again.
"""

from __future__ import annotations

import hashlib
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

from solver.game.board import Board
from solver.game.deals import random_deal
from solver.game.engine import apply_move, legal_moves, reference_search
from solver.game.rules import GAMES, UNLIMITED, Rules, with_pysolfc, with_worrying_back

FILE = Path(__file__).with_name("corpus.txt")
SIZES = [(3, 3), (3, 4), (4, 3), (4, 4), (4, 5), (5, 3), (5, 4), (5, 5), (6, 4)]  # (ranks, piles)
# Where spaces take any card and the tableau builds both ways, small deals are nearly all won unless
# piles are few and deep.
BOTH_WAYS_SIZES = [(4, 2), (5, 2), (4, 3), (5, 3), (6, 3), (5, 4), (6, 4)]
# Two decks: 8 cards a rank.  Baker's Dozen (2 decks) loses often on few piles; Unusual, with its unlimited
# redeals, wins nearly every small deal (lost ones are some 3% at 3 ranks on 4 piles of 4).
TWO_DECK_SIZES = {"bakers-dozen-2-decks": [(3, 2), (3, 3), (4, 3), (4, 4), (5, 4), (4, 5)], "unusual": [(3, 4), (4, 4)]}
SMALL = {g: TWO_DECK_SIZES.get(g, BOTH_WAYS_SIZES if GAMES[g].both_ways else SIZES) for g in GAMES}
SMALL_COUNT = {g: 600 if GAMES[g].pysol_id in (104, 369, 404, 515, 291, 823) else 1000 for g in GAMES}
# Deals whose redeals are spent, where the safe-move, lone-card and dead tests apply (solver/kernels/safe_moves.py,
# moves.py, dead.py).
SPENT_SIZES = [(4, 3), (4, 4), (5, 4), (5, 5), (6, 4), (7, 4)]
SPENT_TWO_DECK_SIZES = [(3, 3), (3, 4), (4, 4), (4, 5)]
SPENT = [g for g in GAMES if GAMES[g].redeals > 0 or (GAMES[g].redeals and GAMES[g].decks > 1)]
WORRY_SIZES = {
    "bakers-dozen": [(3, 3), (3, 4), (4, 3), (4, 4)],
    "good-measure": [(3, 3), (3, 4), (4, 3), (4, 4)],
    "spanish-patience-ii": [(3, 3)],
}
# PySolFC's rules (``with_pysolfc``): cards come back from the foundations, so small deals have more
# positions; where spaces take a card, or the tableau builds both ways, fewer cards still.
PYSOLFC = list(GAMES)  # every game has PySolFC's rules
PYSOLFC_SIZES = {
    g: [(4, 2), (5, 2)]
    if GAMES[g].both_ways and GAMES[g].empty_pile == "any"
    else [(4, 2), (5, 2), (4, 3)]
    if GAMES[g].both_ways
    else [(3, 3), (3, 4), (4, 2)]
    if GAMES[g].empty_pile != "none" or GAMES[g].decks > 1
    else [(3, 3), (3, 4), (4, 3), (4, 4)]
    for g in PYSOLFC
}
# PySolFC's Spanish Patience is another game (foundations by alternate colour, spaces that take nothing): its
# lost deals come with more ranks than piles.
PYSOLFC_SIZES["spanish-patience"] = [(3, 3), (3, 4), (4, 2), (5, 3), (6, 3), (6, 4), (7, 4)]
MANY_PILES = [(7, 17), (8, 20), (8, 32)]  # rules files may ask for up to 32 piles
LARGER = {"good-measure": (7, 5), "bakers-dozen": (6, 5)}  # where lost deals need a real search
WON, LOST, TOO_LARGE = "W", "L", "-"  # a verdict; TOO_LARGE: past the set's limit for the reference


@dataclass(frozen=True)
class Deal:
    rules: Rules
    board: Board
    won: bool


def _cycled(
    game: str, seed: str, count: int, sizes: list[tuple[int, int]], worry: bool = False, spent=False, pysolfc=False
):
    """``spent``: each deal with no redeal left (where redeals never run out, the game without them);
    ``pysolfc``: under PySolFC's rules."""
    rules = with_worrying_back(GAMES[game]) if worry else with_pysolfc(GAMES[game]) if pysolfc else GAMES[game]
    if spent and rules.redeals == UNLIMITED:
        rules = replace(rules, redeals=0)
    rng = random.Random(seed)
    for i in range(count):
        small = rules.reduced(*sizes[i % len(sizes)])
        board = random_deal(small, rng)
        yield small, replace(board, redeals=0) if spent else board


def _midgame(game: str, seed: str, count: int, sizes: list[tuple[int, int]]):
    """Positions some random moves into small deals under PySolFC's rules, cards going up two times in three
    where one may: foundations of every height (by alternate colour, of mixed suits), cards come back and
    pass between foundations."""
    rules = with_pysolfc(GAMES[game])
    rng = random.Random(seed)
    for i in range(count):
        small = rules.reduced(*sizes[i % len(sizes)])
        board = random_deal(small, rng).validate(small)
        for _ in range(rng.randint(2, 4 * small.ranks)):
            moves = legal_moves(board, small)
            if not moves:
                break
            ups = [m for m in moves if m.target is None]
            board = apply_move(board, rng.choice(ups if ups and rng.random() < 0.67 else moves), small)
        yield small, board


def _variants(count: int):
    """What rules files can ask for, mixed at random: deck size, piles, founded Aces, Kings, spaces, worrying back."""
    rng = random.Random("corpus-variants")
    for _ in range(count):
        ranks, aces = rng.randint(2, 5), rng.choice([0, 0, 1, 2])
        rules = replace(
            GAMES["bakers-dozen"],
            founded=aces,
            kings_to_bottom=rng.random() < 0.5,
            empty_pile=rng.choice(["none", "any", "king"]),
            worrying_back=rng.random() < 0.3,
        ).reduced(ranks, rng.randint(2, min(7, 4 * ranks - aces)))
        yield rules, random_deal(rules, rng)


# Each set: how to make its deals, and the most positions the reference may search on one of them
# (None: its default; a deal past the limit is left out of the set).
SETS: dict[str, tuple[Callable[[], object], int | None]] = {
    **{f"small/{g}": (lambda g=g: _cycled(g, f"corpus-small-{g}", SMALL_COUNT[g], SMALL[g]), None) for g in GAMES},
    **{
        f"spent/{g}": (
            lambda g=g: _cycled(
                g, f"corpus-spent-{g}", 500, SPENT_TWO_DECK_SIZES if GAMES[g].decks > 1 else SPENT_SIZES, spent=True
            ),
            None,
        )
        for g in SPENT
    },
    **{
        f"worry/{g}": (lambda g=g, s=s: _cycled(g, f"corpus-worry-{g}", 600 if len(s) > 1 else 60, s, True), 20_000)
        for g, s in WORRY_SIZES.items()
    },
    **{
        f"many-piles/{g}": (lambda g=g: _cycled(g, f"corpus-many-piles-{g}", 30, MANY_PILES), 20_000)
        for g in ("bakers-dozen", "good-measure")  # where spaces take nothing: piles are told apart
    },
    **{f"larger/{g}": (lambda g=g: _cycled(g, f"corpus-larger-{g}", 100, [LARGER[g]]), 300_000) for g in LARGER},
    **{
        f"pysolfc/{g}": (lambda g=g: _cycled(g, f"corpus-pysolfc-{g}", 150, PYSOLFC_SIZES[g], pysolfc=True), 30_000)
        for g in PYSOLFC
    },
    # The same deals under the rules' own game: where PySolFC's rules win a deal these lose, a winning line
    # must take a card back (or move a run, in Ripple Fan).
    **{
        f"pysolfc-strict/{g}": (lambda g=g: _cycled(g, f"corpus-pysolfc-{g}", 150, PYSOLFC_SIZES[g]), 30_000)
        for g in PYSOLFC
    },
    "pysolfc-midgame/spanish-patience": (
        lambda: _midgame("spanish-patience", "corpus-midgame", 200, [(4, 3), (5, 3), (6, 3), (5, 4)]),
        30_000,
    ),
    "variants": (lambda: _variants(300), 20_000),
}


@cache
def boards(name: str) -> list[tuple[Rules, Board]]:
    """The deals of set ``name``, each with its rules."""
    return list(SETS[name][0]())


def digest(name: str) -> str:
    """A digest of the set's boards and rules, so that a change to how deals are made is noticed."""
    text = "\n".join(f"{rules.changes_text()}\n{board.to_text(rules)}" for rules, board in boards(name))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def reference_verdict(board: Board, rules: Rules, limit: int | None) -> str:
    try:
        line = reference_search(board, rules) if limit is None else reference_search(board, rules, limit)
    except RuntimeError:
        return TOO_LARGE
    return WON if line is not None else LOST


@cache
def _stored() -> dict[str, tuple[str, str]]:
    """Set name -> (digest, verdicts) as ``corpus.txt`` has them."""
    stored = {}
    for line in FILE.read_text().splitlines():
        name, recorded, verdicts = line.split()
        stored[name] = (recorded, verdicts)
    return stored


def verdicts(name: str) -> str:
    """The stored verdict of each deal of the set, in order (``W``, ``L`` or ``-``)."""
    recorded, text = _stored()[name]
    if recorded != digest(name) or len(text) != len(boards(name)):
        raise AssertionError(f"{FILE.name} does not match the deals of {name}: run python tests/corpus.py")
    return text


def deals(name: str, count: int | None = None) -> list[Deal]:
    """The first ``count`` deals of the set (all by default) that the reference decided, with its verdict."""
    pairs = boards(name)[:count]
    return [Deal(r, b, v == WON) for (r, b), v in zip(pairs, verdicts(name), strict=False) if v != TOO_LARGE]


def main(names: list[str]) -> None:
    """Search the deals of the sets ``names`` (all by default) and write their verdicts to the file."""
    kept = {} if not names or not FILE.exists() else {n: v for n, v in _stored().items() if n not in names}
    lines = []
    for name, (_, limit) in SETS.items():
        if name in kept:
            lines.append(f"{name} {' '.join(kept[name])}")
            continue
        text = "".join(reference_verdict(board, rules, limit) for rules, board in boards(name))
        lines.append(f"{name} {digest(name)} {text}")
        print(name, text.count(WON), "won", text.count(LOST), "lost", text.count(TOO_LARGE), "too large", flush=True)
    FILE.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    unknown = [name for name in sys.argv[1:] if name not in SETS]
    if unknown:
        sys.exit(f"unknown sets {unknown}; the sets: {', '.join(SETS)}")
    main(sys.argv[1:])
