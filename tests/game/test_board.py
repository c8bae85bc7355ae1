"""Board text: reading, writing, and clear errors."""

import pytest

from solver.game.board import Board, BoardError, parse_board
from solver.game.cards import parse_card
from solver.game.deals import deal
from solver.game.rules import GAMES, with_pysolfc

BD = GAMES["bakers-dozen"]
BD2 = GAMES["bakers-dozen-2-decks"]
SP = GAMES["spanish-patience"]


@pytest.mark.parametrize("game", list(GAMES))
def test_round_trip(game):
    board = deal(GAMES[game], 17)
    again = parse_board(board.to_text()).validate(GAMES[game])
    assert again == board


def test_freecell_solver_style_input():
    text = deal(GAMES["good-measure"], 3).to_text()
    fcs = "\n".join((": " + line) if not line.startswith("Foundations") else line for line in text.splitlines())
    fcs = fcs.replace("C-0", "").replace("D-0", "").replace("H-0", "").replace("S-0", "")
    assert parse_board(fcs) == deal(GAMES["good-measure"], 3)


def test_empty_pile_and_comments():
    board = parse_board("# a comment\nFoundations: S-A\n\n2S 3S\n-\n:\n")
    assert board.piles == ((parse_card("2S"), parse_card("3S")), (), ())
    assert board.foundations == (0, 0, 0, 1)


def _bd_text():
    return deal(BD, 5).to_text().splitlines()


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda lines: lines[:-1], "has 13 piles; the board has 12"),
        (lambda lines: [lines[0].replace("TS", "4H"), *lines[1:]], "4H is twice in pile 1"),
        (lambda lines: [*lines[:1], lines[1].replace("KH", "4D"), *lines[2:]], "4D is in piles 1 and 2"),
        (lambda lines: [lines[0] + " XX", *lines[1:]], "line 1: 'XX' is not a card"),
        (lambda lines: ["Freecells: AS", *lines], "line 1: a free cell holds a card"),
        (lambda lines: ["Stock: AS", *lines], "line 1: unknown line 'Stock'"),
        (lambda lines: ["Foundations: C-5", *lines], "foundation C is built to 5, but AC is still in pile 13"),
        (lambda lines: ["Foundations: C-Z", *lines], "line 1: foundation 'C-Z'"),
        (lambda lines: ["Foundations: C", *lines], "line 1: foundation 'C' is not SUIT-RANK"),
        (lambda lines: [*lines, "Foundations: C-A"], "must come before the piles"),
    ],
)
def test_errors_name_what_is_wrong(edit, message):
    with pytest.raises(BoardError) as err:
        parse_board("\n".join(edit(_bd_text()))).validate(BD)
    assert message in str(err.value)


def test_missing_card():
    lines = _bd_text()
    lines[0] = lines[0].replace("TS ", "")
    with pytest.raises(BoardError, match="missing card: TS"):
        parse_board("\n".join(lines)).validate(BD)


def test_no_piles():
    with pytest.raises(BoardError, match="no piles"):
        parse_board("\n# nothing\n")


def test_face_down_cards_are_written_in_brackets():
    castles = GAMES["castles-in-spain"]
    board = deal(castles, 1)
    lines = board.to_text().splitlines()
    assert lines[0] == "[JD] [QC] [TS] 7D" and len(board.down) == 39
    martha = deal(GAMES["martha"], 1)
    assert martha.to_text().splitlines()[1] == "[JD] QC [QH] 6D"
    with pytest.raises(BoardError, match=r"pile 1: its top card 7D is face down"):
        parse_board("\n".join(["[JD] [QC] [TS] [7D]", *lines[1:]])).validate(castles)
    with pytest.raises(BoardError, match="line 1: '\\[JD' is not a card"):
        parse_board("\n".join(["[JD [QC] [TS] 7D", *lines[1:]]))
    cruel = GAMES["cruel"]
    cruel_lines = deal(cruel, 1).to_text().splitlines()
    cruel_lines[2] = "[" + cruel_lines[2].replace(" ", "] ", 1)  # after its Foundations and Redeals lines
    with pytest.raises(BoardError, match="Cruel has redeals; its cards are all face up"):
        parse_board("\n".join(cruel_lines), cruel).validate(cruel)


@pytest.mark.parametrize("game", ["unusual", "bakers-dozen-2-decks"])
def test_board_text_round_trips_with_both_foundations_of_each_suit(game):
    rules = GAMES[game]
    board = deal(rules, 5)
    text = board.to_text(rules)
    assert text.splitlines()[0].startswith("Foundations: C-") and text.splitlines()[0].count("C-") == 2
    assert parse_board(text).validate(rules) == board


def test_a_suit_s_two_foundations_are_kept_higher_first():
    board = parse_board("Foundations: H-2 C-A H-4 S-K S-Q\nKD\n")
    assert board.foundations == (1, 0, 4, 13, 0, 0, 2, 12)
    assert Board((), (0, 0, 2, 12, 1, 0, 4, 13)).foundations == board.foundations
    assert "H-4 H-2" in board.to_text()


def test_the_foundations_line_may_name_a_suit_once_for_two_decks():
    board = deal(BD2, 8)
    lines = board.to_text().splitlines()[1:]
    assert parse_board("\n".join(lines), BD2).validate(BD2) == board


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda t: t.replace("Foundations: C-0 C-0", "Foundations: C-0 C-0 C-A"), "written three times"),
        (lambda t: t.rstrip("\n") + " AS\n", "AS is (in piles|3 times in pile).*two decks: each card twice"),
        (lambda t: t.replace("Foundations: C-0 C-0", "Foundations: C-A C-0"), "foundation C is built to A, but AC"),
    ],
)
def test_two_deck_boards_count_copies(edit, message):
    with pytest.raises(BoardError, match=message):
        parse_board(edit(deal(BD2, 8).to_text())).validate(BD2)


def test_a_missing_copy_is_named():
    board = deal(BD2, 8)
    piles = list(board.piles)
    piles[0] = piles[0][:-1]
    with pytest.raises(BoardError, match="missing card"):
        Board(tuple(piles), board.foundations).validate(BD2)


def test_a_one_deck_board_refuses_two_foundations_of_a_suit():
    text = "Foundations: H-A H-A\n" + "\n".join(deal(GAMES["bakers-dozen"], 1).to_text().splitlines())
    with pytest.raises(BoardError, match="one foundation per suit|two foundations"):
        parse_board(text).validate(GAMES["bakers-dozen"])


@pytest.mark.parametrize(
    "text, message",
    [
        ("Foundations: C-AD\n", "starts with AD, not AC"),
        ("Foundations: D-AD.2H\n", "2H cannot lie on AD"),
        ("Foundations: D-AD.3S\n", "3S cannot lie on AD"),
        ("Foundations: D-2\n", "write each one's cards"),
    ],
)
def test_foundations_by_alternate_colour_are_written_card_by_card(text, message):
    rules = with_pysolfc(SP).reduced(ranks=3, piles=3)
    piles = "3D 2C AH\n3H 3C 2H\nAS 2D 3S\n"
    with pytest.raises(BoardError, match=message):
        parse_board(text + piles, rules).validate(rules)
    with pytest.raises(BoardError, match="build by suit"):
        parse_board("Foundations: D-AD\n" + piles, SP.reduced(ranks=3, piles=3)).validate(SP.reduced(ranks=3, piles=3))


def test_a_card_written_on_two_foundations_is_refused():
    rules = with_pysolfc(SP).reduced(ranks=3, piles=3)
    with pytest.raises(BoardError, match="2H is on 2 foundations"):
        parse_board("Foundations: C-AC.2H S-AS.2H\n3D 2C AH\n3H 3C\nAD 2D 3S\n", rules).validate(rules)
