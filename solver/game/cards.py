"""Cards as small integers, and their text.

A card is ``(rank - 1) * 4 + suit``: ranks 1..R (Ace = 1), suits in the
order ``C D H S``.  Reduced decks (R < 13, used by the tests) keep the same
code, so the codes of an R-rank deck are exactly ``0 .. 4R - 1`` and the
highest rank of a deck plays the part of the King.
"""

from __future__ import annotations

SUITS = "CDHS"
RANK_TEXT = "A23456789TJQK"
UNICODE_SUITS = {"♣": "C", "♧": "C", "♦": "D", "♢": "D", "♥": "H", "♡": "H", "♠": "S", "♤": "S"}


class CardError(ValueError):
    """A card's text that names no card."""


def make_card(rank: int, suit: int) -> int:
    return (rank - 1) * 4 + suit


def rank_of(card: int) -> int:
    return card // 4 + 1


def suit_of(card: int) -> int:
    return card % 4


def is_red(card: int) -> bool:
    """Diamonds and hearts."""
    return suit_of(card) in (1, 2)


def card_text(card: int) -> str:
    return RANK_TEXT[rank_of(card) - 1] + SUITS[suit_of(card)]


def parse_rank(text: str) -> int:
    """Rank text (``A``, ``2``..``10``, ``T``, ``J``, ``Q``, ``K``; ``0`` for none) to 0..13."""
    t = text.strip().upper()
    if t == "0":
        return 0
    if t == "10":
        return 10
    if len(t) == 1 and t in RANK_TEXT:
        return RANK_TEXT.index(t) + 1
    raise CardError(f"{text!r} is not a rank (A 2 3 4 5 6 7 8 9 T J Q K)")


def parse_suit(text: str) -> int:
    t = UNICODE_SUITS.get(text, text).upper()
    if len(t) == 1 and t in SUITS:
        return SUITS.index(t)
    raise CardError(f"{text!r} is not a suit (C D H S)")


def shown(text: str, most: int = 24) -> str:
    """``text`` quoted for a message, cut short: a bad token may be a whole file's worth."""
    return repr(text) if len(text) <= most else repr(text[:most]) + f"... ({len(text):,} characters)"


def parse_card(text: str) -> int:
    """``TH``, ``10H``, ``10♥`` or ``th`` to a card code."""
    t = text.strip()
    if not 2 <= len(t) <= 3:
        raise CardError(f"{shown(text)} is not a card (e.g. TH, 10H, AS)")
    try:
        rank = parse_rank(t[:-1])
        suit = parse_suit(t[-1])
    except CardError:
        raise CardError(f"{shown(text)} is not a card (rank A 2 3 4 5 6 7 8 9 T J Q K, then suit C D H S)") from None
    if rank == 0:
        raise CardError(f"{shown(text)} is not a card (rank 0)")
    return make_card(rank, suit)
