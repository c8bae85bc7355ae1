"""What each proof needs of the rules (solver/game/premises.py), premise by premise.

Each premise is held, over the fifteen games as RULES.md states them (``GAMES``), as PySolFC plays them
(``with_pysolfc``) and with worrying back (``with_worrying_back``), to the games it holds for as read off
each game's rules by hand below -- not by calling the function under test; then on rules changed one field
at a time (``dataclasses.replace``), so that each condition of each premise is seen to count, and each
condition it leaves out is seen not to."""

import random
from dataclasses import replace

import pytest
from corpus import PYSOLFC_SIZES

from solver.game.deals import random_deal
from solver.game.engine import apply_move, legal_moves
from solver.game.premises import (
    SAFE_ALTERNATE,
    SAFE_LOW,
    SAFE_NO_HOSTS,
    SAFE_NONE,
    SAFE_SUIT,
    UnsupportedRulesError,
    all_face_up,
    beams_apply,
    builds_down_by_rank,
    cards_stay_up,
    check_supported,
    classic,
    dead_test_applies,
    first_pile_trap_applies,
    layers_apply,
    lone_card_rule_applies,
    never_redeals,
    one_deck,
    relaxations_apply,
    safe_rule,
    single_cards,
    spaces_take_nothing,
    strict_game,
    unsupported,
)
from solver.game.rules import (
    BUILD_ALTERNATE,
    BUILD_RANK,
    BUILD_SUIT,
    EMPTY_ANY,
    EMPTY_KING,
    EMPTY_NONE,
    GAMES,
    UNLIMITED,
    with_pysolfc,
    with_worrying_back,
)
from solver.limits import MAX_PILES

WAYS = ("", "-pysolfc", "-worrying-back")
# Every game three ways: as RULES.md states it, as PySolFC plays it, and with worrying back.
ALL = {
    **GAMES,
    **{f"{name}-pysolfc": with_pysolfc(rules) for name, rules in GAMES.items()},
    **{f"{name}-worrying-back": with_worrying_back(rules) for name, rules in GAMES.items()},
}


def every_way(*games: str) -> set[str]:
    """The games, each as RULES.md states it, as PySolFC plays it and with worrying back."""
    return {f"{game}{way}" for game in games for way in WAYS}


# The games whose rules, read by hand (solver/game/rules.py, docs/pysolfc.md), meet each premise.  PySolFC
# adds worrying back to every game but Indefatigable, runs to Ripple Fan, and makes Spanish Patience another
# game: foundations by alternate colour (two copies of each card, as the kernels play it), spaces that take
# nothing.
EVERY = every_way(*GAMES)
# Baker's Dozen's shape: one deck, down by rank in any suit, one card at a time, no redeal.
BAKERS = ("bakers-dozen", "good-measure", "spanish-patience", "portuguese-solitaire", "spanish-patience-ii")
HOLDS = {
    # one deck, foundations by suit: all but the two-deck games and PySolFC's Spanish Patience
    one_deck: EVERY - every_way("unusual", "bakers-dozen-2-decks") - {"spanish-patience-pysolfc"},
    # runs move as a unit in Perseverance, Castles in Spain, Martha, and PySolFC's Ripple Fan
    single_cards: EVERY - every_way("perseverance", "castles-in-spain", "martha") - {"ripple-fan-pysolfc"},
    # down by rank in any suit: Baker's Dozen's five and its two-deck game; PySolFC changes no building rule
    builds_down_by_rank: every_way(*BAKERS, "bakers-dozen-2-decks"),
    # no worrying back: every game as RULES.md states it, and Indefatigable in PySolFC
    cards_stay_up: set(GAMES) | {"indefatigable-pysolfc"},
    # no redeal: all but Cruel, Ripple Fan, Perseverance, Indefatigable, Royal Family and Unusual
    never_redeals: every_way(*BAKERS, "castles-in-spain", "martha", "vineyard", "bakers-dozen-2-decks"),
    # face-down rows in Castles in Spain and Martha only
    all_face_up: EVERY - every_way("castles-in-spain", "martha"),
    # an empty pile stays empty: Baker's Dozen, Good Measure, Cruel, Ripple Fan, Perseverance, the two-deck
    # games, and PySolFC's Spanish Patience (BakersDozen's rows)
    spaces_take_nothing: every_way(
        "bakers-dozen", "good-measure", "cruel", "ripple-fan", "perseverance", "unusual", "bakers-dozen-2-decks"
    )
    | {"spanish-patience-pysolfc"},
    # one deck, down by rank, single cards, no redeal (worrying back or not)
    classic: every_way(*BAKERS) - {"spanish-patience-pysolfc"},
    # one deck, down by suit one card at a time, spaces stay empty, no worrying back, face up, foundations up
    first_pile_trap_applies: {"cruel", "ripple-fan"},
    # classic, and no worrying back
    relaxations_apply: set(BAKERS),
    # no worrying back, single cards
    lone_card_rule_applies: set(GAMES) - {"perseverance", "castles-in-spain", "martha"} | {"indefatigable-pysolfc"},
    # no game moves runs building both ways
    dead_test_applies: EVERY,
    # every card face up
    beams_apply: EVERY - every_way("castles-in-spain", "martha"),
    # one deck, single cards building down, spaces stay empty, no worrying back, face up (redeals: per position)
    layers_apply: {"bakers-dozen", "good-measure", "cruel", "ripple-fan"},
}


def test_every_game_three_ways_is_here():
    assert set(ALL) == EVERY and len(ALL) == 45
    assert all(ALL[f"{name}-pysolfc"].pysolfc and ALL[f"{name}-worrying-back"].worrying_back for name in GAMES)


@pytest.mark.parametrize("premise", list(HOLDS), ids=lambda premise: premise.__name__)
def test_each_premise_holds_for_the_games_whose_rules_meet_it(premise):
    assert {name for name, rules in ALL.items() if premise(rules)} == HOLDS[premise]


# Which safe-move rule covers each game (solver/kernels/safe_moves.py, "Safe foundation moves"), read off its
# building rule: by rank down, one card at a time, SAFE_LOW; by suit SAFE_SUIT; down by alternate colour
# SAFE_ALTERNATE; Royal Family (alternate colour both ways, single cards) SAFE_NO_HOSTS.
SAFE_RULES = {
    "bakers-dozen": SAFE_LOW,
    "good-measure": SAFE_LOW,
    "spanish-patience": SAFE_LOW,
    "portuguese-solitaire": SAFE_LOW,
    "spanish-patience-ii": SAFE_LOW,
    "bakers-dozen-2-decks": SAFE_LOW,
    "cruel": SAFE_SUIT,
    "ripple-fan": SAFE_SUIT,
    "perseverance": SAFE_SUIT,  # by suit, down, with runs
    "indefatigable": SAFE_SUIT,  # by suit, up or down, one card at a time
    "unusual": SAFE_SUIT,
    "royal-family": SAFE_NO_HOSTS,
    "castles-in-spain": SAFE_ALTERNATE,
    "martha": SAFE_ALTERNATE,
    "vineyard": SAFE_ALTERNATE,
}


def test_the_safe_rule_of_every_game():
    assert set(SAFE_RULES) == set(GAMES)
    for name, rule in SAFE_RULES.items():
        assert safe_rule(GAMES[name]) == rule, name
        assert safe_rule(ALL[f"{name}-worrying-back"]) == SAFE_NONE, name
        # PySolFC's games have worrying back, but for Indefatigable
        assert safe_rule(ALL[f"{name}-pysolfc"]) == (rule if name == "indefatigable" else SAFE_NONE), name


@pytest.mark.parametrize(
    "build, both_ways, runs, rule",
    [
        (BUILD_RANK, False, False, SAFE_LOW),
        (BUILD_RANK, False, True, SAFE_NONE),
        (BUILD_RANK, True, False, SAFE_NONE),
        (BUILD_RANK, True, True, SAFE_NONE),
        (BUILD_SUIT, False, False, SAFE_SUIT),
        (BUILD_SUIT, False, True, SAFE_SUIT),
        (BUILD_SUIT, True, False, SAFE_SUIT),
        (BUILD_SUIT, True, True, SAFE_NONE),
        (BUILD_ALTERNATE, False, False, SAFE_ALTERNATE),
        (BUILD_ALTERNATE, False, True, SAFE_ALTERNATE),
        (BUILD_ALTERNATE, True, False, SAFE_NO_HOSTS),
        (BUILD_ALTERNATE, True, True, SAFE_NONE),
    ],
)
def test_the_safe_rule_of_each_building_rule(build, both_ways, runs, rule):
    """Each building rule, down or both ways, single cards or runs, as safe_moves.py's text covers them: by
    suit down, or both ways one card at a time; by alternate colour down, single cards or runs; by rank down
    one card at a time; by alternate colour both ways one card at a time (a card hosts nothing once the other
    colour's next ranks are up); and with worrying back, none at all."""
    rules = replace(GAMES["bakers-dozen"], build=build, both_ways=both_ways, sequence_moves=runs)
    assert safe_rule(rules) == rule
    assert safe_rule(replace(rules, worrying_back=True)) == SAFE_NONE


BD, CRUEL = GAMES["bakers-dozen"], GAMES["cruel"]
# (premise, game, fields changed, whether it holds once changed): each premise is met by the game as it is,
# each change that breaks a condition it names makes it fail, and each change it does not name leaves it.
CHANGED = [
    (one_deck, "bakers-dozen", {"decks": 2}, False),
    (one_deck, "bakers-dozen", {"foundations_alternate": True}, False),
    (one_deck, "bakers-dozen", {"build": BUILD_SUIT, "sequence_moves": True, "redeals": 2}, True),
    (single_cards, "bakers-dozen", {"sequence_moves": True}, False),
    (single_cards, "bakers-dozen", {"both_ways": True, "decks": 2}, True),
    (builds_down_by_rank, "bakers-dozen", {"both_ways": True}, False),
    (builds_down_by_rank, "bakers-dozen", {"build": BUILD_SUIT}, False),
    (builds_down_by_rank, "bakers-dozen", {"build": BUILD_ALTERNATE}, False),
    (builds_down_by_rank, "bakers-dozen", {"sequence_moves": True, "empty_pile": EMPTY_ANY}, True),
    (cards_stay_up, "bakers-dozen", {"worrying_back": True}, False),
    (cards_stay_up, "bakers-dozen", {"redeals": UNLIMITED}, True),
    (never_redeals, "bakers-dozen", {"redeals": 1}, False),
    (never_redeals, "bakers-dozen", {"redeals": UNLIMITED}, False),
    (all_face_up, "bakers-dozen", {"face_down_rows": (0,)}, False),
    (spaces_take_nothing, "bakers-dozen", {"empty_pile": EMPTY_ANY}, False),
    (spaces_take_nothing, "bakers-dozen", {"empty_pile": EMPTY_KING}, False),
    (classic, "bakers-dozen", {"decks": 2}, False),
    (classic, "bakers-dozen", {"build": BUILD_SUIT}, False),
    (classic, "bakers-dozen", {"sequence_moves": True}, False),
    (classic, "bakers-dozen", {"redeals": 1}, False),
    (classic, "bakers-dozen", {"worrying_back": True, "empty_pile": EMPTY_ANY, "face_down_rows": (0,)}, True),
    (first_pile_trap_applies, "cruel", {"decks": 2}, False),
    (first_pile_trap_applies, "cruel", {"foundations_alternate": True}, False),
    (first_pile_trap_applies, "cruel", {"build": BUILD_RANK}, False),
    (first_pile_trap_applies, "cruel", {"build": BUILD_ALTERNATE}, False),
    (first_pile_trap_applies, "cruel", {"both_ways": True}, False),
    (first_pile_trap_applies, "cruel", {"sequence_moves": True}, False),
    (first_pile_trap_applies, "cruel", {"empty_pile": EMPTY_ANY}, False),
    (first_pile_trap_applies, "cruel", {"empty_pile": EMPTY_KING}, False),
    (first_pile_trap_applies, "cruel", {"worrying_back": True}, False),
    (first_pile_trap_applies, "cruel", {"face_down_rows": (0,)}, False),
    (first_pile_trap_applies, "cruel", {"foundations_down": True}, False),
    (first_pile_trap_applies, "cruel", {"redeals": 0}, True),  # redeals or not
    (relaxations_apply, "bakers-dozen", {"worrying_back": True}, False),
    (relaxations_apply, "bakers-dozen", {"redeals": 1}, False),
    (relaxations_apply, "bakers-dozen", {"empty_pile": EMPTY_KING}, True),
    (lone_card_rule_applies, "bakers-dozen", {"worrying_back": True}, False),
    (lone_card_rule_applies, "bakers-dozen", {"sequence_moves": True}, False),
    (lone_card_rule_applies, "bakers-dozen", {"redeals": 1, "empty_pile": EMPTY_ANY}, True),  # both per position
    (dead_test_applies, "cruel", {"sequence_moves": True, "both_ways": True}, False),
    (dead_test_applies, "cruel", {"sequence_moves": True}, True),
    (dead_test_applies, "cruel", {"both_ways": True}, True),
    (beams_apply, "bakers-dozen", {"face_down_rows": (0, 2)}, False),
    (beams_apply, "bakers-dozen", {"decks": 2, "sequence_moves": True, "redeals": 1, "worrying_back": True}, True),
    (beams_apply, "bakers-dozen", {"foundations_alternate": True, "build": BUILD_ALTERNATE, "both_ways": True}, True),
    (layers_apply, "bakers-dozen", {"decks": 2}, False),
    (layers_apply, "bakers-dozen", {"sequence_moves": True}, False),
    (layers_apply, "bakers-dozen", {"both_ways": True}, False),
    (layers_apply, "bakers-dozen", {"worrying_back": True}, False),
    (layers_apply, "bakers-dozen", {"empty_pile": EMPTY_ANY}, False),
    (layers_apply, "bakers-dozen", {"empty_pile": EMPTY_KING}, False),
    (layers_apply, "bakers-dozen", {"face_down_rows": (0,)}, False),
    (layers_apply, "bakers-dozen", {"build": BUILD_ALTERNATE, "redeals": 1}, True),  # redeals: per position
]


@pytest.mark.parametrize(
    "premise, game, changes, holds",
    CHANGED,
    ids=[f"{p.__name__}-{'-'.join(f'{k}={v}' for k, v in c.items())}" for p, _, c, _ in CHANGED],
)
def test_each_condition_of_each_premise_counts(premise, game, changes, holds):
    assert premise(GAMES[game])
    assert premise(replace(GAMES[game], **changes)) == holds


def test_every_game_three_ways_is_supported():
    for name, rules in ALL.items():
        assert unsupported(rules) == "", name
        assert check_supported(rules) is None


BD2, PORTUGUESE = GAMES["bakers-dozen-2-decks"], GAMES["portuguese-solitaire"]
SP_PYSOLFC = ALL["spanish-patience-pysolfc"]
ALTERNATE_FOUNDATIONS = (
    "foundations by alternate colour need one deck, building down by rank one card at a time, face up, no redeal"
)
TWO_DECKS = "two decks are supported only where the tableau builds down by rank or suit, one card at a time"
KING_SPACES = "an empty pile that takes only a King needs the tableau to build down and the foundations up"
# Rules the solver's proofs do not cover, each with the reason ``unsupported`` gives.
REFUSED = [
    (BD, {"runs_by_spaces": True}, "runs_by_spaces and runs_into_spaces need sequence_moves"),
    (BD, {"runs_into_spaces": True}, "runs_by_spaces and runs_into_spaces need sequence_moves"),
    (CRUEL, {"face_down_rows": (0,)}, "face-down cards in a game with redeals are not supported"),
    (PORTUGUESE, {"foundations_down": True}, KING_SPACES),
    (PORTUGUESE, {"both_ways": True}, KING_SPACES),
    (BD, {"decks": 3}, "the solver handles one or two decks, not 3"),
    (BD2, {"build": BUILD_ALTERNATE}, TWO_DECKS),
    (BD2, {"both_ways": True}, TWO_DECKS),
    (BD2, {"sequence_moves": True}, TWO_DECKS),
    (BD2, {"foundations_down": True}, TWO_DECKS),
    (BD2, {"face_down_rows": (0,)}, TWO_DECKS),
    (SP_PYSOLFC, {"decks": 2}, ALTERNATE_FOUNDATIONS),
    (SP_PYSOLFC, {"build": BUILD_SUIT}, ALTERNATE_FOUNDATIONS),
    (SP_PYSOLFC, {"both_ways": True}, ALTERNATE_FOUNDATIONS),
    (SP_PYSOLFC, {"sequence_moves": True}, ALTERNATE_FOUNDATIONS),
    (SP_PYSOLFC, {"foundations_down": True}, ALTERNATE_FOUNDATIONS),
    (SP_PYSOLFC, {"face_down_rows": (0,)}, ALTERNATE_FOUNDATIONS),
    (SP_PYSOLFC, {"redeals": 1}, ALTERNATE_FOUNDATIONS),
    (BD2, {"cards_per_pile": 51}, "two-deck piles may hold at most 50 cards here, not 51"),  # 64 places - 13 - 1
    (BD, {"ranks": 14}, "the solver handles at most 13 ranks, not 14"),
    (BD, {"piles": 0}, f"the solver handles 1 to {MAX_PILES} piles, not 0"),
    (BD, {"piles": MAX_PILES + 1}, f"the solver handles 1 to {MAX_PILES} piles, not {MAX_PILES + 1}"),
]


@pytest.mark.parametrize("rules, changes, reason", REFUSED, ids=[f"{r.name}-{c}" for r, c, _ in REFUSED])
def test_rules_outside_the_proofs_are_refused_with_the_reason(rules, changes, reason):
    changed = replace(rules, **changes)
    assert unsupported(changed) == reason
    with pytest.raises(UnsupportedRulesError) as refused:
        check_supported(changed)
    assert str(refused.value) == f"{rules.title}: {reason}"


def test_what_the_refusals_name_is_supported_where_their_other_conditions_hold():
    """The other side of each refusal: runs that fill spaces with runs, face-down cards without redeals,
    King-only spaces building down, two decks by suit, two-deck piles of 50 cards, 1 pile and 32."""
    castles = GAMES["castles-in-spain"]
    assert castles.runs_by_spaces and castles.runs_into_spaces and castles.face_down_rows
    assert unsupported(castles) == ""
    assert unsupported(replace(PORTUGUESE, build=BUILD_SUIT)) == ""
    assert unsupported(replace(BD2, build=BUILD_SUIT, redeals=UNLIMITED)) == ""
    assert unsupported(replace(BD2, cards_per_pile=50)) == ""
    assert unsupported(replace(BD, piles=MAX_PILES, empty_pile=EMPTY_NONE)) == ""
    assert unsupported(replace(BD, piles=1, ranks=13)) == ""


# strict_game: where PySolFC's rules only add moves to the strict ones (the strict probe, solver/search/strict.py).

ADDS_ONLY = [g for g in GAMES if g not in ("spanish-patience", "indefatigable")]


def test_the_strict_game_exists_where_pysolfc_only_adds_moves():
    assert [g for g in GAMES if strict_game(with_pysolfc(GAMES[g])) is not None] == ADDS_ONLY
    for game in ADDS_ONLY:
        assert strict_game(with_pysolfc(GAMES[game])) == GAMES[game]
        assert strict_game(GAMES[game]) is None  # the strict rules have no stricter game
    assert strict_game(with_worrying_back(GAMES["bakers-dozen"])) is None  # not PySolFC's: a variant
    reduced = strict_game(with_pysolfc(GAMES["ripple-fan"]).reduced(4, 3))
    assert (reduced.ranks, reduced.piles, reduced.worrying_back, reduced.sequence_moves) == (4, 3, False, False)


def _positions(game: str, count: int, seed: int):
    """Positions of small deals of ``game`` reached by random strict moves, with both rule sets."""
    rng = random.Random(seed)
    for i in range(count):
        ranks, piles = PYSOLFC_SIZES[game][i % len(PYSOLFC_SIZES[game])]
        pysolfc = with_pysolfc(GAMES[game]).reduced(ranks, piles)
        strict = strict_game(pysolfc)
        board = random_deal(strict, rng)
        for _ in range(rng.randint(0, 12)):
            yield strict, pysolfc, board
            moves = legal_moves(board, strict)
            if not moves:
                break
            board = apply_move(board, rng.choice(moves), strict)


@pytest.mark.parametrize("game", ADDS_ONLY)
def test_every_strict_child_is_a_pysolfc_child(game):
    checked = 0
    for strict, pysolfc, board in _positions(game, 40, seed=hash(game) % 1000):
        strict_moves, pysolfc_moves = legal_moves(board, strict), legal_moves(board, pysolfc)
        assert set(strict_moves) <= set(pysolfc_moves), (game, board.to_text())
        for move in strict_moves:
            assert apply_move(board, move, strict) == apply_move(board, move, pysolfc), (game, move)
        checked += len(strict_moves)
    assert checked > 100, checked
