"""A position of the game, and its text.

The text is the one of ``RULES.md`` (PySolFC and Freecell Solver write it
too): an optional ``Foundations:`` line, then one pile per line, bottom card
first and the playable card last.  A pile line may start with ``:`` (Freecell
Solver's style); an empty pile is written ``-``.  Blank lines and lines
starting with ``#`` are skipped.  Freecell Solver's own dumps are read too:
``Founds:`` for the foundations, and a ``Freecells:`` line, which must hold
no card (this family has no cells).  A UTF-8 byte order mark is skipped.
In games with redeals a ``Redeals:`` line says how many are left (a number,
or ``unlimited``); without it a board has the game's full allowance.
A face-down card is written in brackets, ``[5H]`` (Castles in Spain, Martha):
the solver knows it, as Blake & Gent's and Solvitaire's do, but it may not
move in a run until it has been turned up, which happens as soon as it is
the top card of its pile.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import SUITS, CardError, card_text, make_card, parse_card, parse_rank, parse_suit, rank_of, shown, suit_of
from .rules import UNLIMITED, UNLIMITED_TEXT, Rules, most_cards_a_pile, redeals_count_text

MAX_BOARD_TEXT = 1 << 16  # characters: the largest family board is 104 cards, a few hundred characters


class BoardError(ValueError):
    """A board text, or a board, that cannot be played."""


@dataclass(frozen=True)
class Board:
    """Piles (bottom card first), the rank of each foundation's top card (0 = empty), and the redeals left
    (``UNLIMITED``: no end).

    One deck: a foundation per suit, in suit order.  Two decks (the same card may lie in two places):
    eight, suit s's two at s and 4 + s, the higher first, so that equal positions are equal boards."""

    piles: tuple[tuple[int, ...], ...]
    foundations: tuple[int, ...] = (0, 0, 0, 0)
    note: str = field(default="", compare=False)
    redeals: int = 0
    down: frozenset[int] = frozenset()  # the face-down cards

    def __post_init__(self) -> None:
        tops = self.foundations
        if len(tops) == 8 and any(tops[s] < tops[4 + s] for s in range(4)):
            pairs = [sorted((tops[s], tops[4 + s]), reverse=True) for s in range(4)]
            object.__setattr__(self, "foundations", tuple(p[0] for p in pairs) + tuple(p[1] for p in pairs))

    def foundations_by_suit(self) -> list[tuple[int, int]]:
        """(suit, top rank) of each foundation, a suit's two (two decks) side by side: the order text shows."""
        return sorted(((i % 4, top) for i, top in enumerate(self.foundations)), key=lambda pair: pair[0])

    def cards_in_play(self) -> int:
        return sum(len(p) for p in self.piles)

    def is_won(self) -> bool:
        return self.cards_in_play() == 0

    def to_text(self, rules: Rules | None = None) -> str:
        """The board's text; with ``rules``, a game with redeals says how many are left even when none is
        (without the line, a board has the game's full allowance)."""
        lines = []
        if any(self.foundations) or len(self.foundations) > 4:  # two decks: always, to say there are eight
            parts = [f"{SUITS[suit]}-{'0A23456789TJQK'[top]}" for suit, top in self.foundations_by_suit()]
            lines.append("Foundations: " + " ".join(parts))
        if self.redeals or (rules is not None and rules.redeals):
            lines.append(f"Redeals: {redeals_count_text(self.redeals)}")
        for pile in self.piles:
            lines.append(" ".join(self.card_text(c) for c in pile) if pile else "-")
        return "\n".join(lines) + "\n"

    def card_text(self, card: int) -> str:
        """A card as the board text writes it: ``5H``, or ``[5H]`` face down."""
        return f"[{card_text(card)}]" if card in self.down else card_text(card)

    def validate(self, rules: Rules) -> Board:
        """Raise :class:`BoardError` unless this board is a position of ``rules``'s deck."""
        if len(self.piles) != rules.piles:
            raise BoardError(f"{rules.title} has {rules.piles} piles; the board has {len(self.piles)}")
        if len(self.foundations) != rules.foundations:
            have = "two foundations for a suit" if len(self.foundations) > 4 else "one foundation per suit"
            raise BoardError(f"the board has {have}, but {rules.title} has {rules.foundations} foundations")
        seen: dict[int, list[int]] = {}
        for number, pile in enumerate(self.piles, 1):
            if len(pile) > most_cards_a_pile(rules):
                raise BoardError(
                    f"pile {number} holds {len(pile)} cards; here a pile may hold {most_cards_a_pile(rules)}"
                )
            for card in pile:
                if rank_of(card) > rules.ranks:
                    raise BoardError(f"pile {number}: {card_text(card)} is not in a {rules.ranks}-rank deck")
                seen.setdefault(card, []).append(number)
                if len(seen[card]) > rules.decks:
                    raise BoardError(f"{card_text(card)} is {_places(seen[card])}{_copies_note(rules)}")
        for index, top in enumerate(self.foundations):
            if not 0 <= top <= rules.ranks:
                raise BoardError(f"foundation {SUITS[index % 4]} at rank {top}: the deck has {rules.ranks} ranks")
        founded = {make_card(rank, index % 4): 0 for index in range(len(self.foundations)) for rank in range(1, 14)}
        for index, top in enumerate(self.foundations):
            for rank in rules.founded_ranks(top):
                founded[make_card(rank, index % 4)] += 1
        for card, count in founded.items():
            piles = seen.get(card, [])
            if count and count + len(piles) > rules.decks:
                top = max(t for i, t in enumerate(self.foundations) if i % 4 == suit_of(card))
                raise BoardError(
                    f"foundation {SUITS[suit_of(card)]} is built to {'0A23456789TJQK'[top]}, "
                    f"but {card_text(card)} is still in pile {piles[-1]}"
                )
        missing = [
            card_text(make_card(rank, suit))
            for suit in range(4)
            for rank in range(1, rules.ranks + 1)
            for _ in range(rules.decks - founded[make_card(rank, suit)] - len(seen.get(make_card(rank, suit), ())))
        ]
        if missing:
            raise BoardError(f"missing card{'s' if len(missing) > 1 else ''}: {' '.join(missing)}")
        for number, pile in enumerate(self.piles, 1):
            if pile and pile[-1] in self.down:
                top = card_text(pile[-1])
                raise BoardError(f"pile {number}: its top card {top} is face down; a top card is face up")
        stray = self.down - seen.keys()
        if stray:
            cards = " ".join(map(card_text, sorted(stray)))
            raise BoardError(f"face-down card{'s' if len(stray) > 1 else ''} not in a pile: {cards}")
        if self.down and rules.redeals:
            raise BoardError(f"{rules.title} has redeals; its cards are all face up")
        if rules.redeals == UNLIMITED and self.redeals != UNLIMITED:
            raise BoardError(f"{rules.title} has unlimited redeals; the board says {self.redeals} are left")
        if rules.redeals != UNLIMITED and not 0 <= self.redeals <= rules.redeals:
            left = redeals_count_text(self.redeals)
            raise BoardError(f"{rules.title} has {rules.redeals_text()}; the board says {left} are left")
        return self


def _places(piles: list[int]) -> str:
    """Where the copies of a card lie: "twice in pile 3", "in piles 1 and 3", "in piles 1, 3 and 5"."""
    if len(set(piles)) == 1:
        return f"{'twice' if len(piles) == 2 else f'{len(piles)} times'} in pile {piles[0]}"
    return f"in piles {', '.join(map(str, piles[:-1]))} and {piles[-1]}"


def _copies_note(rules: Rules) -> str:
    return f" ({rules.title} has two decks: each card twice)" if rules.decks > 1 else ""


def _parse_foundations(text: str, line_no: int) -> tuple[int, ...]:
    """The tops as written; a suit written twice gives the eight foundations of two decks."""
    tops: list[list[int]] = [[], [], [], []]
    for item in text.split():
        suit_text, sep, rank_text = item.partition("-")
        if not sep:
            raise BoardError(f"line {line_no}: foundation {shown(item)} is not SUIT-RANK (e.g. H-A, S-0)")
        try:
            suit, rank = parse_suit(suit_text), parse_rank(rank_text)
        except CardError as err:
            raise BoardError(f"line {line_no}: foundation {shown(item)}: {err}") from None
        if len(tops[suit]) == 2:
            raise BoardError(f"line {line_no}: foundation {SUITS[suit]} is written three times (two decks have two)")
        tops[suit].append(rank)
    if all(len(t) <= 1 for t in tops):
        return tuple(t[0] if t else 0 for t in tops)
    return tuple(t[0] if t else 0 for t in tops) + tuple(t[1] if len(t) > 1 else 0 for t in tops)


def _parse_redeals(text: str, line_no: int) -> int:
    value = text.strip().lower()
    if value == UNLIMITED_TEXT:
        return UNLIMITED
    if value.isdigit() and len(value) <= 3:
        return int(value)
    raise BoardError(f"line {line_no}: redeals {shown(text.strip())} is not a number or {UNLIMITED_TEXT!r}")


def parse_board(text: str, rules: Rules | None = None) -> Board:
    """Read a board text; the error names the line and what is wrong with it.  Without a ``Redeals:``
    line, the board has ``rules``'s full allowance of redeals (none when no rules are given)."""
    if len(text) > MAX_BOARD_TEXT:
        raise BoardError(f"the board text has {len(text):,} characters: not a board of this family")
    foundations = (0, 0, 0, 0)
    redeals = rules.redeals if rules is not None else 0
    piles: list[tuple[int, ...]] = []
    down: set[int] = set()
    for line_no, raw in enumerate(text.removeprefix("\ufeff").splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        head, colon, rest = line.partition(":")
        name = head.strip().lower()
        if colon and name in ("foundations", "founds"):
            if piles:
                raise BoardError(f"line {line_no}: the Foundations line must come before the piles")
            foundations = _parse_foundations(rest, line_no)
            continue
        if colon and name == "redeals":
            if piles:
                raise BoardError(f"line {line_no}: the Redeals line must come before the piles")
            redeals = _parse_redeals(rest, line_no)
            continue
        if colon and name == "freecells":
            if rest.replace("-", "").strip():
                raise BoardError(f"line {line_no}: a free cell holds a card, but this family has no cells")
            continue
        if colon and head.strip():
            raise BoardError(f"line {line_no}: unknown line {shown(head.strip())}: this family has no cells or stock")
        if line.startswith(":"):
            line = line[1:].strip()
        if line in ("", "-"):
            piles.append(())
            continue
        cards = []
        for token in line.split():
            face_down = len(token) > 2 and token.startswith("[") and token.endswith("]")
            try:
                cards.append(parse_card(token[1:-1] if face_down else token))
            except CardError as err:
                raise BoardError(f"line {line_no}: {err}") from None
            if face_down:
                down.add(cards[-1])
        piles.append(tuple(cards))
    if not piles:
        raise BoardError("the board has no piles")
    if rules is not None and len(foundations) < rules.foundations:  # two decks: a suit written once
        foundations = foundations + (0,) * (rules.foundations - len(foundations))
    return Board(tuple(piles), foundations, redeals=redeals, down=frozenset(down))
