"""Rules files: a game designer's own variant of the family, as a TOML file.

A file names a variant and changes what it wants of a base game (Baker's
Dozen unless ``base`` says otherwise)::

    name = "bakers-dozen-12"      # letters, digits and dashes
    title = "Baker's Dozen on 12 piles"
    base = "bakers-dozen"         # one of the known games
    piles = 12
    ranks = 13                    # a deck of Ace..rank in four suits
    founded = 0                   # Aces on their foundations before the deal
    kings_to_bottom = true        # Kings slid below the other cards of their pile
    empty_pile = "none"           # "none", "any" (any card) or "king"
    worrying_back = false         # a foundation's top card may come back
    deal_style = "bakers-dozen"   # how numbered deals are made (see deals.py)
    face_down_rows = [0, 1, 2]    # rows of the deal dealt face down (0: the first, the bottom)

The piles are dealt in rows, so ``cards_per_pile`` follows from the deck;
a file may state it, and is refused if it disagrees.  Only what the solver's
pruning is proved for can be written (build down by rank, single cards, no
redeals): anything else is refused with a message, never half-read.
"""

from __future__ import annotations

import re
import sys
from dataclasses import replace
from pathlib import Path

from ..limits import MAX_PILES
from .premises import unsupported
from .rules import (
    DEAL_BAKERS,
    DEAL_BASES_LAST,
    DEAL_GOOD_MEASURE,
    DEAL_PLAIN,
    EMPTY_RULES,
    GAMES,
    UNSUPPORTED_KEYS,
    Rules,
    UnknownGameError,
    get_rules,
)

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


class RulesFileError(ValueError):
    """A rules file that does not describe a game the solver can decide."""


_INTEGERS = {"piles": (1, MAX_PILES), "ranks": (2, 13), "founded": (0, 8), "cards_per_pile": (1, 104)}
_CHOICES = {
    "empty_pile": EMPTY_RULES,
    "deal_style": (DEAL_BAKERS, DEAL_GOOD_MEASURE, DEAL_PLAIN, DEAL_BASES_LAST),
}
_FOUNDING = (DEAL_GOOD_MEASURE, DEAL_BASES_LAST)  # the deals that found cards
_KEYS = ("name", "title", "base", "kings_to_bottom", "worrying_back", "face_down_rows", *_INTEGERS, *_CHOICES)


def _check_value(key: str, value: object) -> None:
    if key in ("name", "title", "base"):
        ok, want = isinstance(value, str) and value.strip() != "", "a non-empty string"
    elif key in ("kings_to_bottom", "worrying_back"):
        ok, want = isinstance(value, bool), "true or false"
    elif key == "face_down_rows":
        ok = isinstance(value, list) and len(set(value)) == len(value)
        ok = ok and all(isinstance(r, int) and not isinstance(r, bool) and 0 <= r < 52 for r in value)
        want = "a list of distinct row numbers from 0 (the first row dealt) to 51"
    elif key in _INTEGERS:
        low, high = _INTEGERS[key]
        ok = isinstance(value, int) and not isinstance(value, bool) and low <= value <= high
        want = f"a whole number from {low} to {high}"
    else:
        ok, want = value in _CHOICES[key], " or ".join(f'"{c}"' for c in _CHOICES[key])
    if not ok:
        raise RulesFileError(f"{key} = {value!r}: must be {want}")


def parse_rules_text(text: str, default_name: str = "") -> Rules:
    """A variant's :class:`Rules` from the text of a rules file."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise RulesFileError(f"not a TOML file: {err}") from None
    if "aces_founded" in data and "founded" not in data:  # the key's first name
        data["founded"] = data.pop("aces_founded")
    for key, value in data.items():
        if key in UNSUPPORTED_KEYS:
            raise RulesFileError(f"{key}: {UNSUPPORTED_KEYS[key]}")
        if key not in _KEYS:
            raise RulesFileError(f"unknown key {key!r}; a rules file may set: {', '.join(_KEYS)}")
        _check_value(key, value)
    try:
        base = get_rules(data.get("base", "bakers-dozen"))
    except UnknownGameError as err:
        raise RulesFileError(f"base: {err}") from None
    name = data.get("name", default_name).strip()
    if not re.fullmatch(r"[a-z0-9][a-z0-9-]{0,63}", name):
        raise RulesFileError(f"name {name!r}: use up to 64 lower-case letters, digits and dashes")
    if name in GAMES:
        raise RulesFileError(f"name {name!r} is a known game's; give the variant a name of its own")
    aces = data.get("founded", base.founded)
    kings = data.get("kings_to_bottom", base.kings_to_bottom)
    style = data.get("deal_style")
    if style is None:  # follow the base unless the change of founded cards or Kings rules it out
        style = base.deal_style
        if (style == DEAL_BASES_LAST and aces != base.foundations) or (style in _FOUNDING) != (aces > 0):
            style = DEAL_GOOD_MEASURE if aces else DEAL_BAKERS if kings else DEAL_PLAIN
    rules = replace(
        base,
        name=name,
        title=data.get("title", name).strip(),
        piles=data.get("piles", base.piles),
        ranks=data.get("ranks", base.ranks),
        founded=aces,
        kings_to_bottom=kings,
        empty_pile=data.get("empty_pile", base.empty_pile),
        deal_style=style,
        worrying_back=data.get("worrying_back", base.worrying_back),
        face_down_rows=tuple(sorted(data.get("face_down_rows", base.face_down_rows))),
    )
    rules = _dealt(rules, data.get("cards_per_pile"))
    problem = unsupported(rules)
    if problem:
        raise RulesFileError(problem)
    return rules


def _dealt(rules: Rules, stated: int | None) -> Rules:
    """``rules`` with the pile size its deck gives; refuse decks that cannot be dealt."""
    in_play = rules.cards - rules.founded
    if rules.founded > rules.foundations:
        raise RulesFileError(f"founded = {rules.founded}, but {rules.title} has {rules.foundations} foundations")
    if rules.piles > in_play:
        raise RulesFileError(f"{rules.piles} piles for {in_play} cards: some piles would start empty")
    if (rules.deal_style in _FOUNDING) != (rules.founded > 0) or (
        rules.deal_style == DEAL_BASES_LAST and rules.founded != rules.foundations
    ):
        raise RulesFileError(
            f'deal_style "{rules.deal_style}" with founded = {rules.founded}: '
            f'the "{DEAL_GOOD_MEASURE}" deal founds some Aces, the "{DEAL_BASES_LAST}" deal every base card, '
            "and no other deal founds any"
        )
    if rules.foundations_down and rules.deal_style == DEAL_GOOD_MEASURE:
        raise RulesFileError(
            f'deal_style "{DEAL_GOOD_MEASURE}" founds Aces, but {rules.title}\'s foundations start from the King'
        )
    rules = rules.reduced(rules.ranks, rules.piles)  # derives cards_per_pile from the deck
    per_pile = rules.cards_per_pile
    if stated is not None and stated != per_pile:
        raise RulesFileError(
            f"cards_per_pile = {stated}, but {in_play} cards dealt in rows to {rules.piles} piles "
            f"give at most {per_pile} a pile"
        )
    return rules


def load_rules_file(path: str | Path) -> Rules:
    """Read a rules file; the error names the file and what is wrong with it."""
    path = Path(path)
    try:
        text = path.read_bytes().decode("utf-8")  # as written: TOML has its own rules for \r
    except (OSError, UnicodeDecodeError) as err:
        raise RulesFileError(f"{path}: cannot read it: {err}") from None
    try:
        return parse_rules_text(text, default_name=re.sub(r"[^a-z0-9]+", "-", path.stem.lower()).strip("-"))
    except RulesFileError as err:
        raise RulesFileError(f"{path}: {err}") from None
