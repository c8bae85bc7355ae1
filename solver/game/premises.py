"""What each proof of the solver needs of the rules, stated once, by name.

The kernels prune and relax only where a written proof holds (the proofs
sit beside the code they prove, in :mod:`solver.kernels`).  Each proof
needs something of the rules: one deck, a tableau that builds down by
rank, single cards, cards that never come back from a foundation, no
redeal.  This module names those premises and, for each rule or search,
the premises it needs; every caller (the kernels' rule codes in
``solver/search/arrays.py``, the drivers, the CLI, the engine, rules files)
asks here, so that a premise is checked in one place.

What depends on the position rather than the rules -- "no redeal is left",
"this space is useless" -- the kernels check per position (``meta[M_REDEALS]``,
``generate_moves``); a rule that holds "once no redeal is left" is named
here by the rules it may hold under at all.
"""

from __future__ import annotations

from dataclasses import replace

from ..limits import MAX_PILES
from .rules import (
    BUILD_ALTERNATE,
    BUILD_RANK,
    BUILD_SUIT,
    EMPTY_KING,
    EMPTY_NONE,
    GAMES,
    PYSOLFC_CHANGES,
    Rules,
    most_cards_a_pile,
    pysolfc_adds_moves_only,
)


class UnsupportedRulesError(ValueError):
    """Rules outside what the solver's proofs cover."""


# The premises, one by one.


def one_deck(rules: Rules) -> bool:
    """Each card once, four foundations by suit: the proofs of the relaxations and their keys are written
    for 52 cards.  Foundations by alternate colour are not: the kernels play that game as one of two
    suits in two decks (solver/search/arrays.py, "Foundations by alternate colour")."""
    return rules.decks == 1 and not rules.foundations_alternate


def single_cards(rules: Rules) -> bool:
    """One card moves at a time (no runs as a unit)."""
    return not rules.sequence_moves


def builds_down_by_rank(rules: Rules) -> bool:
    """The tableau builds down by rank in any suit (Baker's Dozen's rule)."""
    return rules.build == BUILD_RANK and not rules.both_ways


def cards_stay_up(rules: Rules) -> bool:
    """A card on a foundation never comes back (no worrying back)."""
    return not rules.worrying_back


def never_redeals(rules: Rules) -> bool:
    """The game has no redeal at all (rules that hold "once no redeal is left" check that per position)."""
    return not rules.redeals


def all_face_up(rules: Rules) -> bool:
    """No card is dealt face down."""
    return not rules.face_down_rows


def spaces_take_nothing(rules: Rules) -> bool:
    """An empty pile stays empty."""
    return rules.empty_pile == EMPTY_NONE


# The rules and searches, each with the premises its proof needs.


def classic(rules: Rules) -> bool:
    """Baker's Dozen's shape: one deck, building down by rank, one card at a time, no redeal.  The
    shortener's keyed shortcuts (solver/search/shorten.py) are written for it."""
    return one_deck(rules) and builds_down_by_rank(rules) and single_cards(rules) and never_redeals(rules)


def first_pile_trap_applies(rules: Rules) -> bool:
    """The first pile's trap (solver/kernels/trap.py): one deck, building down by suit one card at a time
    (a King takes nothing and moves nowhere), an empty pile stays empty, cards stay up, all face up,
    foundations up from the Ace.  Redeals or not.  Its premise of the position, at most four cards in play
    a pile, the kernel checks at each."""
    return (
        one_deck(rules)
        and rules.build == BUILD_SUIT
        and not rules.both_ways
        and single_cards(rules)
        and spaces_take_nothing(rules)
        and cards_stay_up(rules)
        and all_face_up(rules)
        and not rules.foundations_down
    )


def relaxations_apply(rules: Rules) -> bool:
    """The capacity relaxation (solver/kernels/capacity.py) and the suit-blind walks
    (solver/kernels/suitblind.py): the classic shape, and cards that stay up."""
    return classic(rules) and cards_stay_up(rules)


SAFE_NONE, SAFE_LOW, SAFE_SUIT, SAFE_ALTERNATE, SAFE_NO_HOSTS = "none", "low", "suit", "alternate", "no-hosts"


def safe_rule(rules: Rules) -> str:
    """Which safe-foundation-move rule covers ``rules`` once no redeal is left (solver/kernels/safe_moves.py):
    none with worrying back; by suit, down, or both ways one card at a time; by alternate colour, down,
    single cards or runs; Baker's Dozen's rule building down by rank one card at a time; and where nothing
    else holds with single cards, cards that can host nothing (alternate colour both ways)."""
    if not cards_stay_up(rules):
        return SAFE_NONE
    if rules.build == BUILD_SUIT and not (rules.both_ways and rules.sequence_moves):
        return SAFE_SUIT
    if rules.build == BUILD_ALTERNATE and not rules.both_ways:
        return SAFE_ALTERNATE
    if not single_cards(rules):
        return SAFE_NONE
    if not rules.both_ways:
        return SAFE_LOW
    return SAFE_NO_HOSTS if rules.build == BUILD_ALTERNATE else SAFE_NONE


def lone_card_rule_applies(rules: Rules) -> bool:
    """The lone-card rule (solver/kernels/moves.py): single cards and cards that stay up; per position it
    also needs no redeal left and useless spaces."""
    return cards_stay_up(rules) and single_cards(rules)


def dead_test_applies(rules: Rules) -> bool:
    """The greedy dead test (solver/kernels/dead.py): anything but runs building both ways; per position it
    also needs no redeal left."""
    return not (rules.sequence_moves and rules.both_ways)


def beams_apply(rules: Rules) -> bool:
    """Where beams run (solver/kernels/beam.py): every card face up, since a beam does not track face-down
    ones.  A beam proves nothing lost and its lines are replayed, so it needs no proof: any building rule,
    runs, redeals and two copies of each card (two decks, foundations by alternate colour) are welcome."""
    return all_face_up(rules)


def strict_game(rules: Rules) -> Rules | None:
    """The game under its strict rules, where ``rules`` are PySolFC's and only add moves to them
    (``solver.game.rules.PYSOLFC_ADDS_ONLY``: cards that come back from the foundations, Ripple Fan's runs):
    every line of the strict game is then a line of PySolFC's on the same layout, so a strict win is a win
    (the strict probe, solver/search/strict.py).  None elsewhere: the strict rules themselves, rules files,
    PySolFC's Spanish Patience (another game) and Indefatigable (PySolFC's rules are the strict ones)."""
    base = GAMES.get(rules.name.removesuffix("-pysolfc"))
    if not rules.pysolfc or base is None or not pysolfc_adds_moves_only(base.name):
        return None
    changed = PYSOLFC_CHANGES.get(base.name, {})
    if not changed:
        return None  # Indefatigable: PySolFC plays the strict game itself
    # The strict rules on the same deck and table (the tests' reduced decks too): the changes undone.
    undone = {field: getattr(base, field) for field in changed}
    return replace(rules, name=base.name, title=base.title, pysolfc=False, **undone)


LAYERS_PREMISES = (
    "the layered search needs one deck, single cards building down, spaces that take nothing, no worrying "
    "back, no redeal left and piles of at most 15 cards"
)


def layers_apply(rules: Rules) -> bool:
    """The layered search's proof (solver/kernels/layered.py), as far as the rules go (its driver checks that
    the board fits its encoding, ``solver.search.layered.fits``)."""
    return (
        one_deck(rules)
        and single_cards(rules)
        and not rules.both_ways
        and cards_stay_up(rules)
        and spaces_take_nothing(rules)
        and all_face_up(rules)
    )


def unsupported(rules: Rules) -> str:
    """Why the solver cannot decide ``rules`` at all, or "" when it can."""
    if (rules.runs_by_spaces or rules.runs_into_spaces) and single_cards(rules):
        return "runs_by_spaces and runs_into_spaces need sequence_moves"
    if not all_face_up(rules) and not never_redeals(rules):
        return "face-down cards in a game with redeals are not supported"
    if rules.empty_pile == EMPTY_KING and (rules.foundations_down or rules.both_ways):
        # The kernels turn ranks over where foundations build down, and the lone-card rule's proof for
        # King-only spaces assumes a King never goes onto another card.
        return "an empty pile that takes only a King needs the tableau to build down and the foundations up"
    if rules.decks not in (1, 2):
        return f"the solver handles one or two decks, not {rules.decks}"
    if rules.decks == 2 and (
        rules.build == BUILD_ALTERNATE
        or rules.both_ways
        or not single_cards(rules)
        or rules.foundations_down
        or not all_face_up(rules)
    ):
        # The safe-move proofs for two decks (solver/kernels/safe_moves.py) cover these premises only.
        return "two decks are supported only where the tableau builds down by rank or suit, one card at a time"
    if rules.foundations_alternate and (
        rules.decks != 1
        or not builds_down_by_rank(rules)
        or not single_cards(rules)
        or rules.foundations_down
        or not all_face_up(rules)
        or not never_redeals(rules)
    ):
        # The kernels see this game as two decks of two suits, which its building by rank alone allows
        # (solver/search/arrays.py, "Foundations by alternate colour"); the two-deck premises below hold,
        # and only PySolFC's Spanish Patience, with no redeal, has been held to the reference search.
        return (
            "foundations by alternate colour need one deck, building down by rank one card at a time, "
            "face up, no redeal"
        )
    if rules.decks > 1 and rules.cards_per_pile > most_cards_a_pile(rules):
        return f"two-deck piles may hold at most {most_cards_a_pile(rules)} cards here, not {rules.cards_per_pile}"
    if rules.ranks > 13:
        return f"the solver handles at most 13 ranks, not {rules.ranks}"
    if not 1 <= rules.piles <= MAX_PILES:
        return f"the solver handles 1 to {MAX_PILES} piles, not {rules.piles}"
    return ""


def check_supported(rules: Rules) -> None:
    """Refuse rules outside the proofs' premises, with the reason."""
    problem = unsupported(rules)
    if problem:
        raise UnsupportedRulesError(f"{rules.title}: {problem}")
