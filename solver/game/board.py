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

from dataclasses import dataclass, field, replace

from .cards import (
    SUITS,
    CardError,
    card_text,
    is_red,
    make_card,
    parse_card,
    parse_rank,
    parse_suit,
    rank_of,
    shown,
    suit_of,
)
from .rules import UNLIMITED, UNLIMITED_TEXT, Rules, most_cards_a_pile, redeals_count_text

MAX_BOARD_TEXT = 1 << 16  # characters: the largest family board is 104 cards, a few hundred characters


class BoardError(ValueError):
    """A board text, or a board, that cannot be played."""


@dataclass(frozen=True)
class Board:
    """Piles (bottom card first), the rank of each foundation's top card (0 = empty), and the redeals left
    (``UNLIMITED``: no end).

    One deck: a foundation per suit, in suit order.  Two decks (the same card may lie in two places):
    eight, suit s's two at s and 4 + s, the higher first, so that equal positions are equal boards.

    Where foundations build by alternate colour in any suit (``Rules.foundations_alternate``), a top rank
    does not say which cards a foundation holds: ``founded`` holds them, each foundation's bottom first
    (foundation i starts with the Ace of suit i), and ``foundations`` follows from it.  Elsewhere it is
    empty."""

    piles: tuple[tuple[int, ...], ...]
    foundations: tuple[int, ...] = (0, 0, 0, 0)
    note: str = field(default="", compare=False)
    redeals: int = 0
    down: frozenset[int] = frozenset()  # the face-down cards
    founded: tuple[tuple[int, ...], ...] = ()

    def __post_init__(self) -> None:
        if self.founded:
            object.__setattr__(self, "foundations", tuple(rank_of(held[-1]) if held else 0 for held in self.founded))
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
        if any(self.foundations) and self.founded:  # each foundation's cards, bottom first: H-AH.2S.3D
            parts = [f"{SUITS[i]}-{'.'.join(map(card_text, held)) or '0'}" for i, held in enumerate(self.founded)]
            lines.append("Foundations: " + " ".join(parts))
        elif any(self.foundations) or len(self.foundations) > 4:  # two decks: always, to say there are eight
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
        board = self._founded_checked(rules)
        founded = {make_card(rank, index % 4): 0 for index in range(len(self.foundations)) for rank in range(1, 14)}
        for index, top in enumerate(self.foundations):
            for card in (
                board.founded[index] if board.founded else (make_card(r, index % 4) for r in rules.founded_ranks(top))
            ):
                founded[card] += 1
        for card, count in founded.items():
            piles = seen.get(card, [])
            if count and count + len(piles) > rules.decks:
                index = next(i for i, held in enumerate(board.founded) if card in held) if board.founded else None
                top = max(t for i, t in enumerate(self.foundations) if i % 4 == suit_of(card))
                where = (
                    f"foundation {SUITS[index]} holds {card_text(card)}"
                    if index is not None
                    else f"foundation {SUITS[suit_of(card)]} is built to {'0A23456789TJQK'[top]}"
                )
                if not piles:  # written on two foundations
                    raise BoardError(f"{card_text(card)} is on {count} foundations{_copies_note(rules)}")
                raise BoardError(f"{where}, but {card_text(card)} is still in pile {piles[-1]}")
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
        return board

    def _founded_checked(self, rules: Rules) -> Board:
        """This board with ``founded`` as ``rules`` need it: each foundation's cards where foundations build
        by alternate colour (empty ones filled in), none elsewhere; raise :class:`BoardError` where the cards
        cannot lie so."""
        if not rules.foundations_alternate:
            if self.founded:
                raise BoardError(f"{rules.title}'s foundations build by suit: write each one's top rank, e.g. H-5")
            return self
        if not self.founded:
            if any(self.foundations):
                raise BoardError(
                    f"{rules.title}'s foundations build by alternate colour in any suit: write each one's cards, "
                    "bottom first, e.g. H-AH.2S.3D"
                )
            return replace(self, founded=((),) * len(self.foundations))
        for index, held in enumerate(self.founded):
            below = None
            for card in held:
                if below is None and card != make_card(1, index):
                    raise BoardError(f"foundation {SUITS[index]} starts with {card_text(card)}, not A{SUITS[index]}")
                if below is not None and (rank_of(card) != rank_of(below) + 1 or is_red(card) == is_red(below)):
                    raise BoardError(
                        f"foundation {SUITS[index]}: {card_text(card)} cannot lie on {card_text(below)} "
                        "(up by alternate colour)"
                    )
                below = card
        return self


def _places(piles: list[int]) -> str:
    """Where the copies of a card lie: "twice in pile 3", "in piles 1 and 3", "in piles 1, 3 and 5"."""
    if len(set(piles)) == 1:
        return f"{'twice' if len(piles) == 2 else f'{len(piles)} times'} in pile {piles[0]}"
    return f"in piles {', '.join(map(str, piles[:-1]))} and {piles[-1]}"


def _copies_note(rules: Rules) -> str:
    return f" ({rules.title} has two decks: each card twice)" if rules.decks > 1 else ""


def _parse_foundations(text: str, line_no: int) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """The tops as written, a suit written twice giving the eight foundations of two decks; and where some
    foundation is written as its cards (H-AH.2S.3D: foundations by alternate colour), each one's cards."""
    tops: list[list[int]] = [[], [], [], []]
    held: list[tuple[int, ...]] = [(), (), (), ()]
    as_cards = False
    for item in text.split():
        suit_text, sep, rank_text = item.partition("-")
        if not sep:
            raise BoardError(f"line {line_no}: foundation {shown(item)} is not SUIT-RANK (e.g. H-A, S-0)")
        try:
            suit = parse_suit(suit_text)
            if len(rank_text) >= 2 and not rank_text.isdigit():  # its cards, bottom first
                held[suit] = tuple(parse_card(card) for card in rank_text.split("."))
                rank, as_cards = len(held[suit]), True
            else:
                rank = parse_rank(rank_text)
        except CardError as err:
            raise BoardError(f"line {line_no}: foundation {shown(item)}: {err}") from None
        if len(tops[suit]) == 2 or (as_cards and tops[suit]):
            times = "three times (two decks have two)" if len(tops[suit]) == 2 else "twice"
            raise BoardError(f"line {line_no}: foundation {SUITS[suit]} is written {times}")
        tops[suit].append(rank)
    if as_cards:
        if any(top and not cards for top, cards in zip((t[0] if t else 0 for t in tops), held, strict=True)):
            raise BoardError(
                f"line {line_no}: write every foundation as its cards (H-AH.2S) or every one as its top rank (H-2)"
            )
        return tuple(len(cards) for cards in held), tuple(held)
    if all(len(t) <= 1 for t in tops):
        return tuple(t[0] if t else 0 for t in tops), ()
    return tuple(t[0] if t else 0 for t in tops) + tuple(t[1] if len(t) > 1 else 0 for t in tops), ()


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
    foundations, founded = (0, 0, 0, 0), ()
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
            foundations, founded = _parse_foundations(rest, line_no)
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
    return Board(tuple(piles), foundations, redeals=redeals, down=frozenset(down), founded=founded)
