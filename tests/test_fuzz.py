"""Fuzzing the inputs: every malformed board, rules file, game name or deal range
ends in exit status 2 with a one-line message, never a traceback.

Each test runs the real command line (click's runner, in process) on inputs
that hypothesis makes: valid PySolFC deals broken in one known way, where
the message is predictable, and raw text or bytes, where only "a clear
error" is."""

import json
import tempfile
from pathlib import Path

from click.testing import CliRunner
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from solver.batch import MAX_BATCH, BatchError, parse_deals
from solver.cli import main
from solver.game.board import Board
from solver.game.cards import card_text
from solver.game.deals import MAX_DEAL, deal
from solver.game.rules import GAMES, UNSUPPORTED_KEYS
from solver.game.variants import _CHOICES, _INTEGERS, _KEYS, parse_rules_text

# Derandomized: the same inputs on every run, so the suite stays deterministic.
FUZZ = settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
CHEAP = ["--max-states", "50", "--json"]  # a well-formed input is solved, briefly


def run(*args, stdin=None):
    return CliRunner().invoke(main, list(args), input=stdin)


def assert_refused(out, *fragments):
    """Exit 2, one clear message, no traceback; the message names what is wrong."""
    assert out.exit_code == 2, (out.exit_code, out.output, out.exception)
    assert "Traceback" not in out.output
    assert out.exception is None or isinstance(out.exception, SystemExit), repr(out.exception)
    message = out.output.strip().splitlines()[-1]
    assert message.startswith("Error: ") and len(message) > len("Error: ") + 10, out.output
    assert not fragments or any(f in message for f in fragments), message


def solve_board(game, text):
    data = text.encode("utf-8", errors="surrogatepass")  # a lone surrogate makes bytes that are not UTF-8
    return run("solve", "--game", game, "--board", "-", *CHEAP, stdin=data)


games = st.sampled_from(list(GAMES))
deals = st.tuples(games, st.integers(1, 40_000)).map(lambda gn: (GAMES[gn[0]], deal(GAMES[gn[0]], gn[1])))
pick = st.integers(0, 10**6)


def nth_card(board: Board, k: int) -> tuple[int, int]:
    """The (pile, height) of the k-th card of the board, counting around."""
    spots = [(p, i) for p, pile in enumerate(board.piles) for i in range(len(pile))]
    return spots[k % len(spots)]


def with_piles(board: Board, piles) -> Board:
    return Board(tuple(tuple(p) for p in piles), board.foundations, redeals=board.redeals)


@FUZZ
@given(deals, pick, pick)
def test_a_duplicated_card(game_board, a, b):
    rules, board = game_board
    piles = [list(p) for p in board.piles]
    (p, i), (q, j) = nth_card(board, a), nth_card(board, b)
    if (p, i) == (q, j):
        q, j = nth_card(board, b + 1)
    assume(piles[q][j] != piles[p][i])  # two decks: the card's other copy, no duplicate
    piles[q][j] = piles[p][i]
    out = solve_board(rules.name, with_piles(board, piles).to_text())
    card = card_text(piles[p][i])  # twice in a one-deck game; three times in a two-deck one
    assert_refused(out, f"{card} is in piles", f"{card} is twice in pile", f"{card} is 3 times in pile")


@FUZZ
@given(deals, pick)
def test_a_missing_card(game_board, a):
    rules, board = game_board
    piles = [list(p) for p in board.piles]
    p, i = nth_card(board, a)
    gone = piles[p].pop(i)
    out = solve_board(rules.name, with_piles(board, piles).to_text())
    assert_refused(out, "missing card")
    assert card_text(gone) in out.output


@FUZZ
@given(deals, st.integers(-3, 3).filter(bool), pick)
def test_the_wrong_number_of_piles(game_board, change, at):
    rules, board = game_board
    lines = board.to_text().splitlines()
    first = sum(line.startswith(("Foundations", "Redeals")) for line in lines)
    spot = first + at % (len(lines) - first - max(0, -change) + 1)
    if change > 0:
        lines[spot:spot] = ["-"] * change
    else:
        del lines[spot : spot - change]
    out = solve_board(rules.name, "\n".join(lines))
    assert_refused(out, f"has {rules.piles} piles; the board has {rules.piles + change}")


@FUZZ
@given(deals, st.integers(0, 3), st.integers(1, 13))
def test_an_impossible_foundation(game_board, suit, rank):
    rules, board = game_board
    tops = list(board.foundations)
    if rules.foundations_down:  # built from the King down to rank: a card at or above it is still in a pile
        tops[suit] = min(tops[suit] - 1 if tops[suit] else rules.ranks, rank)
    else:
        tops[suit] = max(tops[suit] + 1, rank)  # a card at or below it is still in a pile
    out = solve_board(rules.name, Board(board.piles, tuple(tops), redeals=board.redeals).to_text())
    assert_refused(out, "still in pile")


junk = st.text(st.characters(blacklist_categories=["Zs", "Cc"]), min_size=1, max_size=6)


@FUZZ
@given(deals, junk, pick)
def test_a_stray_token(game_board, token, at):
    rules, board = game_board
    lines = board.to_text().splitlines()
    tokens = [line.split() for line in lines]
    row = at % len(lines)
    tokens[row].insert(at % (len(tokens[row]) + 1), token)
    out = solve_board(rules.name, "\n".join(" ".join(t) for t in tokens))
    assert_refused(out)


@settings(FUZZ, max_examples=500)
@given(games, st.text(max_size=300))
def test_raw_text_as_a_board(game, text):
    assert_refused(solve_board(game, text))


@settings(FUZZ, max_examples=200)
@given(games, st.binary(max_size=200))
def test_raw_bytes_as_a_board(game, data):
    assert_refused(run("solve", "--game", game, "--board", "-", *CHEAP, stdin=data))


# -- rules files ------------------------------------------------------------


def toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return json.dumps(value)  # ints, floats and strings: JSON's spelling is TOML's (or a parse error)


scalars = st.one_of(
    st.integers(-5, 60),
    st.booleans(),
    st.text(max_size=12),
    st.floats(allow_nan=False),
    st.sampled_from([c for choices in _CHOICES.values() for c in choices] + list(GAMES)),
)
rule_keys = st.one_of(st.sampled_from(list(_KEYS) + list(UNSUPPORTED_KEYS)), st.text(min_size=1, max_size=10))
rule_tables = st.dictionaries(rule_keys, st.one_of(scalars, st.lists(scalars, max_size=3)), max_size=7)


def solve_with_rules_file(text: str, deal_number: str = "1"):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "my-variant.toml"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        return run("solve", "--game", str(path), "--deal", deal_number, *CHEAP)


def check_rules_file(text: str) -> None:
    """Refused with a message, or loaded as a variant whose deals the solver plays."""
    out = solve_with_rules_file(text)
    if out.exit_code == 2:
        assert_refused(out, "my-variant.toml: ")
        return
    assert out.exit_code == 0, (out.output, out.exception)
    record = json.loads(out.output)
    rules = parse_rules_text(text, "my-variant")
    assert record["game"] == rules.name and record["verdict"] in ("won", "lost", "unknown")
    assert rules.piles * rules.cards_per_pile >= rules.cards - rules.founded


@FUZZ
@given(rule_tables)
def test_rules_files_made_of_keys_and_values(table):
    check_rules_file("".join(f"{json.dumps(k)} = {toml_value(v)}\n" for k, v in table.items()))


@FUZZ
@given(
    st.fixed_dictionaries(
        {},
        optional={
            **{key: st.integers(low - 2, high + 2) for key, (low, high) in _INTEGERS.items()},
            **{key: st.sampled_from([*choices, "sometimes"]) for key, choices in _CHOICES.items()},
            "kings_to_bottom": st.booleans(),
            "base": st.sampled_from([*GAMES, "klondike"]),
        },
    )
)
def test_rules_files_near_the_limits(table):
    check_rules_file("".join(f"{k} = {toml_value(v)}\n" for k, v in table.items()))


@FUZZ
@given(st.text(max_size=200))
def test_raw_text_as_a_rules_file(text):
    check_rules_file(text)


def test_rules_file_messages():
    cases = {
        "piles = 'ten'": "piles = 'ten': must be a whole number from 1 to 32",
        "redeals = 2": "redeals: a variant has no redeals; redeals come with the named games only",
        "base = 'royal-family'\nempty_pile = 'king'": "an empty pile that takes only a King needs",
        "face_down_rows = [0, 'x']": "face_down_rows = [0, 'x']: must be a list of distinct row numbers",
        "base = 'cruel'\nface_down_rows = [0]": "face-down cards in a game with redeals are not supported",
        "base = 'cruel'\nfounded = 2\ndeal_style = 'bases-last'": 'deal_style "bases-last" with founded = 2',
        "colour = 'red'": "unknown key 'colour'",
        "base = 'klondike'": "base: unknown game 'klondike'",
        "name = 'bakers-dozen'": "is a known game's",
        "piles = 30\nranks = 5": "30 piles for 20 cards",
        "cards_per_pile = 5": "cards_per_pile = 5, but 52 cards dealt in rows to 13 piles give at most 4",
        "founded = 2\ndeal_style = 'plain'": 'deal_style "plain" with founded = 2',
        "piles = [": "not a TOML file",
    }
    for text, message in cases.items():
        out = solve_with_rules_file(text)
        assert_refused(out, message)
    missing = run("solve", "--game", "/no/such/variant.toml", "--deal", "1")
    assert_refused(missing, "/no/such/variant.toml: cannot read it")


def test_a_variant_plays_like_the_game_it_restates():
    out = solve_with_rules_file("base = 'good-measure'\npiles = 10\nranks = 13", deal_number="5")
    same = run("solve", "--game", "good-measure", "--deal", "5", *CHEAP)
    assert json.loads(out.output)["board"] == json.loads(same.output)["board"]


# -- game names and deal numbers ---------------------------------------------


@FUZZ
@given(st.text(min_size=1, max_size=30).filter(lambda t: not t.lower().endswith(".toml")))
def test_unknown_game_names(name):
    key = name.strip().lower().replace("_", "-").replace(" ", "-").replace("'", "")
    if key in GAMES:
        return
    assert_refused(run("solve", "--game", name, "--deal", "1"), "unknown game")
    assert_refused(run("winrate", "--game", name, "--deals", "1-3"), "unknown game")


numbers = st.one_of(st.integers(-10, 40_000), st.integers(-(10**25), 10**25))


@FUZZ
@given(numbers)
def test_deal_numbers(number):
    out = run("solve", "--game", "bakers-dozen", "--deal", str(number), *CHEAP)
    if 1 <= number < MAX_DEAL:
        assert out.exit_code == 0, out.output
    else:
        assert_refused(out, "out of range")


@FUZZ
@given(numbers, numbers, st.sampled_from(["{}-{}", "{}..{}", "{},{}", "{} - {}", "{}-", "-{}", "{}-{}-{}"]))
def test_deal_ranges(low, high, shape):
    text = shape.format(low, high, high)
    try:
        chosen = parse_deals(text)
    except BatchError:
        chosen = None
    if chosen is not None:  # well formed: the numbers asked for, in range, and not too many
        assert chosen and all(1 <= n < MAX_DEAL for n in chosen) and len(chosen) <= MAX_BATCH
        assert {low, high} & set(chosen)
        return
    out = run("winrate", "--game", "bakers-dozen", "--deals", text, "--output", "/nonexistent/x")
    assert_refused(out, "deal range")


@FUZZ
@given(st.text(max_size=20))
def test_deal_ranges_as_raw_text(text):
    try:
        chosen = parse_deals(text)
    except BatchError:
        assert_refused(run("winrate", "--game", "bakers-dozen", "--deals", text, "--output", "/nonexistent/x"))
        return
    assert all(1 <= n < MAX_DEAL for n in chosen)


def _alternate_foundation(suit: int, picks: list[int]) -> tuple[str, list[int]]:
    """A foundation by alternate colour as it may lie: suit's Ace, then each card one rank higher of the other
    colour (of the two suits of that colour, the one ``picks`` says)."""
    cards = [suit]
    for rank, pick in enumerate(picks, 2):
        other = [s for s in range(4) if (s in (1, 2)) != (cards[-1] % 4 in (1, 2))]
        cards.append((rank - 1) * 4 + other[pick % 2])
    return "CDHS"[suit], cards


foundation_lines = st.lists(
    st.one_of(
        st.tuples(st.sampled_from("CDHS"), st.lists(st.integers(0, 51), max_size=4)),  # mostly wrong
        st.builds(_alternate_foundation, st.integers(0, 3), st.lists(st.integers(0, 1), max_size=6)),  # right
    ),
    max_size=5,
)


@FUZZ
@given(foundation_lines, st.integers(1, 1000))
@example([("C", [0, 6]), ("H", [2, 7])], 1).via("two foundations that may lie so")
def test_foundations_written_as_their_cards_are_read_or_refused_clearly(items, number):
    """PySolFC's Spanish Patience writes a foundation as its cards (H-AH.2S); any such line, its cards taken
    out of the piles, is solved or refused with one line."""
    written = [c for _, cards in items for c in cards]
    piles = tuple(tuple(c for c in pile if c not in written) for pile in deal(GAMES["spanish-patience"], number).piles)
    line = " ".join(f"{suit}-{'.'.join(card_text(c) for c in cards) or '0'}" for suit, cards in items)
    text = f"Foundations: {line}\n" + Board(piles).to_text()
    out = run("solve", "--game", "spanish-patience", "--pysolfc", "--board", "-", *CHEAP, stdin=text)
    if out.exit_code != 0:
        assert_refused(out)
