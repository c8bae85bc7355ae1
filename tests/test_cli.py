"""The `bakers solve` command: output, JSON, and exit status 2 on bad input; the requests its options make."""

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from solver.cli import main, solve_command, winrate_command
from solver.game.board import parse_board
from solver.game.cards import card_text
from solver.game.deals import deal, pysolfc_layout
from solver.game.engine import REDEAL, Move, apply_move, is_solution, legal_moves
from solver.game.rules import GAMES, with_pysolfc, with_worrying_back
from solver.requests import InputError, Limits, SolveRequest, WinrateRequest, parse_memory
from solver.search import Budget


def run(*args, stdin=None):
    return CliRunner().invoke(main, list(args), input=stdin)


def record_moves(record: dict) -> list[Move]:
    """A JSON record's moves (piles numbered from 1) as engine moves."""

    def move(m: dict) -> Move:
        if m["from"] == "redeal":
            return REDEAL
        source = -m["foundation"] if m["from"] == "foundation" else m["from"] - 1
        onto = m["to_foundation"] - 1 if "to_foundation" in m else None
        return Move(source, None if m["to"] == "foundation" else m["to"] - 1, m["cards"], onto)

    return [move(m) for m in record["moves"]]


def test_solve_a_deal_prints_layout_verdict_and_numbered_moves():
    out = run("solve", "--game", "bakers-dozen", "--deal", "5")
    assert out.exit_code == 0, out.output
    assert "Baker's Dozen, PySolFC deal 5" in out.output
    assert "pile 13: AC JD 2C AH" in out.output
    assert "Verdict: won" in out.output
    assert "  1. AS from pile " in out.output and " to foundation" in out.output
    assert " from pile " in out.output and "onto" in out.output


def test_json_moves_replay():
    out = run("solve", "--game", "good-measure", "--deal", "5", "--json")
    assert out.exit_code == 0, out.output
    record = json.loads(out.output)
    assert record["verdict"] == "won" and record["game"] == "good-measure"
    board = parse_board(record["board"])
    assert board == deal(GAMES["good-measure"], 5)
    assert is_solution(board, record_moves(record), GAMES["good-measure"])


def test_lost_deal():
    out = run("solve", "--game", "good-measure", "--deal", "1", "--json")
    assert json.loads(out.output)["verdict"] == "lost"


def test_one_run_decides_and_keeps_to_its_budget():
    lost = json.loads(run("solve", "-g", "good-measure", "-d", "1", "--one-run", "--json").output)
    assert lost["verdict"] == "lost"
    board = deal(GAMES["good-measure"], 2)
    won = json.loads(run("solve", "-g", "good-measure", "-d", "2", "--one-run", "--json").output)
    assert won["verdict"] == "won" and is_solution(board, record_moves(won), GAMES["good-measure"])
    capped = json.loads(
        run("solve", "-g", "good-measure", "-d", "3", "--one-run", "--max-states", "5000", "--json").output
    )
    assert capped["verdict"] == "unknown" and capped["reason"] == "states" and capped["states"] == 5000


def test_unknown_when_the_state_budget_runs_out():
    out = run("solve", "--game", "good-measure", "--deal", "3", "--max-states", "1000", "--json")
    record = json.loads(out.output)
    assert out.exit_code == 0
    assert record["verdict"] == "unknown" and record["reason"] == "states"
    assert record["states"] == 1000


def test_board_from_stdin():
    text = deal(GAMES["bakers-dozen"], 5).to_text()
    out = run("solve", "--game", "bakers-dozen", "--board", "-", stdin=text)
    assert out.exit_code == 0 and "Verdict: won" in out.output


@pytest.mark.parametrize(
    "args, stdin, message",
    [
        (["--game", "klondike", "--deal", "1"], None, "unknown game 'klondike'"),
        (["--game", "bakers-dozen"], None, "exactly one of --deal"),
        (["--game", "bakers-dozen", "--deal", "0"], None, "out of range"),
        (["--game", "bakers-dozen", "--board", "-"], "AS 2S\n", "has 13 piles"),
        (["--game", "bakers-dozen", "--board", "-"], "AS ZZ\n", "line 1: 'ZZ' is not a card"),
        (["--game", "bakers-dozen", "--deal", "1", "--memory", "lots"], None, "--memory 'lots'"),
        (["--game", "bakers-dozen", "--deal", "1", "--timeout", "0"], None, "give a positive number of seconds"),
        (["--game", "bakers-dozen", "--deal", "1", "--timeout", "nan"], None, "--timeout nan: give a positive"),
        (["--game", "bakers-dozen", "--deal", "1", "--timeout", "inf"], None, "--timeout inf: give a positive"),
        (["--game", "bakers-dozen", "--deal", "1", "--memory", "100T"], None, "--memory '100T': this machine has"),
        (["--game", "bakers-dozen", "--board", "-"], "AS " + "Z" * 4096 + "\n", "'ZZZZZZZZZZZZZZZZZZZZZZZZ'... (4,096"),
        (["--game", "bakers-dozen", "--board", "-"], "AS 2S\n" * 20_000, "120,000 characters: not a board"),
        (["--game", "bakers-dozen", "--board", "-"], "Freecells: AS\n: 2S\n", "line 1: a free cell holds a card"),
        (["--game", "bakers-dozen", "--deal", "x"], None, "'x' is not a valid integer"),
    ],
)
def test_bad_input_exits_2_with_a_message(args, stdin, message):
    out = run("solve", *args, stdin=stdin)
    assert out.exit_code == 2, out.output
    assert message in out.output
    assert "Traceback" not in out.output


def test_a_long_bad_token_is_shown_once_and_cut_short():
    out = run("solve", "--game", "bakers-dozen", "--board", "-", stdin="AS " + "Z" * 4096 + "\n")
    assert out.exit_code == 2 and out.output.count("'ZZ") == 1 and len(out.output) < 200, out.output


@pytest.mark.slow
def test_freecell_solver_dumps_and_a_byte_order_mark_are_read():
    board = deal(GAMES["good-measure"], 3)
    founds, *piles = board.to_text().replace("Foundations:", "Founds:").splitlines()
    fcs = f"{founds}\nFreecells:  -  -\n" + "".join(f": {line}\n" for line in piles)
    assert parse_board(fcs) == board == parse_board("\ufeff" + board.to_text())
    out = run("solve", "--game", "good-measure", "--board", "-", "--json", stdin="\ufeff" + fcs)
    assert out.exit_code == 0 and json.loads(out.output)["verdict"] == "won", out.output


def test_unknown_when_the_memory_budget_runs_out():
    out = run("solve", "--game", "good-measure", "--deal", "3", "--memory", "1M", "--json")
    record = json.loads(out.output)
    assert out.exit_code == 0
    assert record["verdict"] == "unknown" and record["reason"] == "memory"


def test_worrying_back_flag():
    out = run("solve", "--game", "good-measure", "--deal", "5", "--worrying-back", "--json")
    assert out.exit_code == 0, out.output
    record = json.loads(out.output)
    assert record["game"] == "good-measure-worrying-back" and record["verdict"] == "won"
    rules = with_worrying_back(GAMES["good-measure"])
    moves = [
        Move(-1 - "CDHS".index(m["text"][1]) if m["from"] == "foundation" else m["from"] - 1,
             None if m["to"] == "foundation" else m["to"] - 1)
        for m in record["moves"]
    ]  # fmt: skip
    assert is_solution(parse_board(record["board"]), moves, rules)
    text = run("solve", "--game", "good-measure", "--deal", "5", "--worrying-back")
    assert "worrying back allowed" in text.output


def test_progress_goes_to_standard_error_and_counts_up():
    out = run("solve", "-g", "good-measure", "-d", "3", "--max-states", "150000", "--report-every", "0.001", "--json")
    assert out.exit_code == 0, out.output
    record = json.loads(out.stdout)  # the report leaves standard output alone
    lines = [line.split() for line in out.stderr.splitlines()]
    assert len(lines) >= 5 and all(line[1] == "s" and line[3] == "positions" for line in lines), out.stderr
    counted = [int(line[2].replace(",", "")) for line in lines]
    assert counted == sorted(counted) and 0 < counted[-1] <= record["states"] == 150_000
    assert run("solve", "-g", "good-measure", "-d", "3", "--report-every", "0").exit_code == 2


def test_pysolfc_s_own_layout_on_request():
    """Good Measure 2: PySolFC leaves a King above another card; the default slides it down and says so,
    --pysolfc-layout solves PySolFC's layout as dealt and says that instead."""
    ours = json.loads(run("solve", "-g", "good-measure", "-d", "2", "--json").output)
    theirs = json.loads(run("solve", "-g", "good-measure", "-d", "2", "--json", "--pysolfc-layout").output)
    assert ours["layout"] == "rules" and "slid to the bottom" in ours["note"]
    assert theirs["layout"] == "pysolfc" and theirs["note"] == "" and "exactly as PySolFC" in theirs["source"]
    assert parse_board(theirs["board"]) == pysolfc_layout(GAMES["good-measure"], 2)
    assert theirs["verdict"] == "won"
    assert is_solution(pysolfc_layout(GAMES["good-measure"], 2), record_moves(theirs), GAMES["good-measure"])


@pytest.mark.parametrize("game, number", [("royal-family", 3), ("perseverance", 2)])
def test_redeals_and_runs_replay_from_the_json(game, number):
    record = json.loads(run("solve", "-g", game, "-d", str(number), "--json").output)
    rules = GAMES[game]
    board = parse_board(record["board"], rules)
    assert board == deal(rules, number) and record["verdict"] == "won"
    moves = record_moves(record)
    assert is_solution(board, moves, rules)
    assert any(m.is_redeal for m in moves) or any(m.count > 1 for m in moves)


@pytest.mark.parametrize("game, number", [("castles-in-spain", 2), ("martha", 3)])
def test_face_down_games_say_the_solver_sees_every_card(game, number):
    """The board keeps its face-down cards in brackets, the JSON and the text say the game is the thoughtful
    one, and the moves replay from the board as written."""
    record = json.loads(run("solve", "-g", game, "-d", str(number), "--json").output)
    rules = GAMES[game]
    board = parse_board(record["board"], rules)
    assert board == deal(rules, number) and board.down and "[" in record["board"]
    assert "thoughtful" in record["thoughtful"] and record["verdict"] == "won"
    assert is_solution(board, record_moves(record), rules)
    text = run("solve", "-g", game, "-d", str(number)).output
    assert "Face-down cards are in brackets" in text and "turning up" in text


@pytest.mark.parametrize("game", ["unusual", "bakers-dozen-2-decks"])
def test_two_deck_games_solve_from_a_board_file_and_replay(game, tmp_path):
    """A two-deck board file (each card twice, a suit's two foundations side by side) is read, solved and
    its moves replay; the text shows both foundations of each suit."""
    rules = GAMES[game]
    board = deal(rules, 4)
    path = tmp_path / "board.txt"
    path.write_text(board.to_text(rules))
    record = json.loads(run("solve", "-g", game, "-b", str(path), "--json").output)
    assert parse_board(record["board"], rules) == board and record["verdict"] == "won"
    assert is_solution(board, record_moves(record), rules)
    text = run("solve", "-g", game, "-d", "4").output
    assert ("Foundations: AC AC AD AD AH AH AS AS" in text) == (game == "unusual")


def test_pysolfc_s_rules_on_request():
    """``--pysolfc``: PySolFC's rules on PySolFC's layout; the record names both, and its line replays under
    PySolFC's rules."""
    record = json.loads(run("solve", "-g", "cruel", "-d", "7", "--json", "--pysolfc").output)
    assert record["game"] == "cruel-pysolfc" and record["layout"] == "pysolfc" and record["verdict"] == "won"
    rules = with_pysolfc(GAMES["cruel"])
    assert parse_board(record["board"]) == pysolfc_layout(rules, 7)
    assert is_solution(pysolfc_layout(rules, 7), record_moves(record), rules)
    out = run("solve", "-g", "ripple-fan", "-d", "3", "--pysolfc")
    assert out.exit_code == 0 and "Ripple Fan (PySolFC's rules)" in out.output and "runs move as a unit" in out.output


@pytest.mark.parametrize(
    "args, message",
    [
        (["-g", "cruel", "--worrying-back"], "give at most one of --pysolfc and --worrying-back"),
    ],
)
def test_pysolfc_s_rules_refused_where_they_cannot_be_played(args, message):
    out = run("solve", "-d", "1", "--pysolfc", *args)
    assert out.exit_code == 2 and message in out.output and "Traceback" not in out.output, out.output


def test_pysolfc_s_spanish_patience_names_the_foundation_each_card_goes_onto():
    """PySolFC's Spanish Patience builds its foundations by alternate colour: the JSON says which foundation
    takes each card, and the line replays under those rules."""
    record = json.loads(run("solve", "-g", "spanish-patience", "-d", "3", "--json", "--pysolfc").output)
    assert record["game"] == "spanish-patience-pysolfc" and record["verdict"] == "won"
    rules = with_pysolfc(GAMES["spanish-patience"])
    ups = [m for m in record["moves"] if m["to"] == "foundation"]
    assert len(ups) >= 52 and all(1 <= m["to_foundation"] <= 4 for m in ups)
    assert is_solution(pysolfc_layout(rules, 3), record_moves(record), rules)
    out = run("solve", "-g", "spanish-patience", "-d", "3", "--pysolfc")
    assert out.exit_code == 0 and "to foundation H" in out.output, out.output


def test_pysolfc_s_spanish_patience_from_a_board_with_cards_of_any_suit_up(tmp_path):
    """A board file writes each foundation's cards (H-AH.2C.3D); solve shows each one's top card and
    wins from there with a line that replays."""
    rules = with_pysolfc(GAMES["spanish-patience"])
    board, rng = pysolfc_layout(rules, 5).validate(rules), random.Random(3)
    for _ in range(40):
        moves = legal_moves(board, rules)
        board = apply_move(board, rng.choice([m for m in moves if m.target is None] or moves), rules)
    assert any(card % 4 != i for i, held in enumerate(board.founded) for card in held)  # suits mixed
    path = tmp_path / "board.txt"
    path.write_text(board.to_text(rules))
    out = run("solve", "-g", "spanish-patience", "--pysolfc", "--board", str(path))
    tops = ", ".join(f"{'CDHS'[i]}: {card_text(held[-1])}" for i, held in enumerate(board.founded) if held)
    assert out.exit_code == 0 and f"Foundations: {tops}" in out.output, out.output
    record = json.loads(run("solve", "-g", "spanish-patience", "--pysolfc", "--board", str(path), "--json").output)
    assert parse_board(record["board"], rules) == board and record["verdict"] == "won"
    assert is_solution(board, record_moves(record), rules)


def test_a_deal_lost_by_the_rules_won_in_pysolfc_by_a_card_back_from_its_foundation():
    """Cruel 924 is lost under RULES.md, where cards stay up; PySolFC lets one come back, and wins.  The
    JSON names the foundation it came from, and the line replays."""
    strict = json.loads(run("solve", "-g", "cruel", "-d", "924", "--json").output)
    assert strict["verdict"] == "lost"
    record = json.loads(run("solve", "-g", "cruel", "-d", "924", "--json", "--pysolfc").output)
    backs = [m for m in record["moves"] if m["from"] == "foundation"]
    assert record["verdict"] == "won" and backs and all(1 <= m["foundation"] <= 4 for m in backs)
    assert all(" from foundation onto " in m["text"] for m in backs)
    rules = with_pysolfc(GAMES["cruel"])
    assert is_solution(pysolfc_layout(rules, 924), record_moves(record), rules)


# The requests, made without the command line: every check, its message and exit status 2, every derived field.


def refusal(make) -> InputError:
    """The InputError that ``make()`` raises: exit status 2 and a message of one line."""
    with pytest.raises(InputError) as refused:
        make()
    assert refused.value.exit_code == 2 and "\n" not in refused.value.format_message()
    return refused.value


@pytest.fixture
def board_file(tmp_path):
    path = tmp_path / "board.txt"
    path.write_text(deal(GAMES["bakers-dozen"], 5).to_text())
    with path.open() as file:
        yield file


@pytest.mark.parametrize(
    "options, message",
    [
        ({"game": "klondike", "number": 1}, "unknown game 'klondike'"),
        ({"game": "/no/such/variant.toml", "number": 1}, "/no/such/variant.toml: cannot read it"),
        ({"game": "cruel", "number": 1, "pysolfc": True, "worrying_back": True},
         "give at most one of --pysolfc and --worrying-back (PySolFC's rules say where cards come back)"),
        ({"game": "bakers-dozen"}, "give exactly one of --deal NUMBER and --board FILE"),
        ({"game": "bakers-dozen", "number": 1, "timeout": 0}, "--timeout 0: give a positive number of seconds"),
        ({"game": "bakers-dozen", "number": 1, "timeout": -1.5}, "--timeout -1.5: give a positive number of seconds"),
        ({"game": "bakers-dozen", "number": 1, "timeout": float("nan")}, "--timeout nan: give a positive"),
        ({"game": "bakers-dozen", "number": 1, "timeout": float("inf")}, "--timeout inf: give a positive"),
        ({"game": "bakers-dozen", "number": 1, "max_states": 0}, "--max-states must be positive"),
        ({"game": "bakers-dozen", "number": 1, "report_every": 0.0},
         "--report-every must be a positive number of seconds"),
        ({"game": "bakers-dozen", "number": 1, "one_run": True, "layered": True},
         "give at most one of --one-run and --layered"),
        ({"game": "bakers-dozen", "number": 1, "checkpoint_file": "x.ckpt"},
         "--checkpoint needs --one-run or --layered: the default schedule's restarts, beams and walks keep state"),
        ({"game": "bakers-dozen", "number": 1, "one_run": True, "checkpoint_every": 0.0},
         "--checkpoint-every must be a positive number of seconds"),
        ({"game": "bakers-dozen", "number": 0}, "out of range"),
        ({"game": "portuguese-solitaire", "number": 1, "layered": True},
         "Portuguese Solitaire: --layered: the layered search needs"),
        ({"game": "bakers-dozen", "number": 1, "memory": "lots"},
         "--memory 'lots': give bytes or a size like 512M or 2G"),
        ({"game": "bakers-dozen", "number": 1, "memory": "1K"}, "--memory '1K': at least 64K is needed"),
        ({"game": "bakers-dozen", "number": 1, "memory": "100T"}, "--memory '100T': this machine has"),
        # The first wrong option is the one named: the game before the numbers, the deal before the memory.
        ({"game": "klondike", "timeout": 0}, "unknown game 'klondike'"),
        ({"game": "bakers-dozen", "timeout": 0, "max_states": 0}, "give exactly one of --deal NUMBER"),
        ({"game": "bakers-dozen", "number": 0, "memory": "lots"}, "out of range"),
        ({"game": "bakers-dozen", "number": 1, "one_run": True, "layered": True, "checkpoint_every": 0.0},
         "give at most one of --one-run and --layered"),
    ],
)  # fmt: skip
def test_a_solve_request_refuses_each_bad_option_with_its_message(options, message):
    assert message in refusal(lambda: SolveRequest.from_options(**options)).message


def test_a_solve_request_refuses_two_boards_a_layout_without_a_deal_and_a_file_that_is_no_text(board_file, tmp_path):
    both = refusal(lambda: SolveRequest.from_options(game="bakers-dozen", number=1, board_file=board_file))
    assert both.message == "give exactly one of --deal NUMBER and --board FILE"
    layout = refusal(lambda: SolveRequest.from_options(game="bakers-dozen", board_file=board_file, pysolfc_layout=True))
    assert layout.message == "--pysolfc-layout needs --deal NUMBER"
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"\xff\xfe\x00 not text")
    with binary.open() as file:
        refused = refusal(lambda: SolveRequest.from_options(game="bakers-dozen", board_file=file))
    assert refused.message == f"board {binary}: not a text file (UTF-8)"


def test_a_solve_request_refuses_rules_the_solver_cannot_decide(monkeypatch):
    monkeypatch.setattr("solver.requests.unsupported", lambda rules: "no such premise holds")
    refused = refusal(lambda: SolveRequest.from_options(game="bakers-dozen", number=1))
    assert refused.message == "Baker's Dozen: no such premise holds"


def test_a_solve_request_of_a_numbered_deal_holds_it_as_the_rules_lay_it_out():
    request = SolveRequest.from_options(game="good-measure", number=2, memory="512M", max_states=1000)
    assert request.board == deal(GAMES["good-measure"], 2) and request.rules == GAMES["good-measure"]
    assert request.source == "PySolFC deal 2" and request.number == 2
    assert not request.pysolfc_layout and request.layout == "rules"
    assert request.limits == Limits(seconds=60.0, memory=512 << 20, positions=1000)
    assert request.limits.budget() == Budget(seconds=60.0, memory=512 << 20, positions=1000)
    assert request.checkpoint is None and request.report_every is None and not request.as_json


def test_a_solve_request_takes_pysolfc_s_layout_on_request_and_with_pysolfc_s_rules_for_a_deal():
    asked = SolveRequest.from_options(game="good-measure", number=2, pysolfc_layout=True)
    assert asked.pysolfc_layout and asked.layout == "pysolfc"
    assert asked.board == pysolfc_layout(GAMES["good-measure"], 2) != deal(GAMES["good-measure"], 2)
    assert asked.source == "PySolFC deal 2, laid out exactly as PySolFC deals it"
    implied = SolveRequest.from_options(game="cruel", number=7, pysolfc=True)
    rules = with_pysolfc(GAMES["cruel"])
    assert implied.pysolfc_layout and implied.layout == "pysolfc" and implied.rules == rules
    assert implied.board == pysolfc_layout(rules, 7)


def test_a_solve_request_of_a_board_file_keeps_the_rules_layout_even_with_pysolfc_s_rules(board_file):
    request = SolveRequest.from_options(game="bakers-dozen", board_file=board_file, pysolfc=True)
    assert request.rules == with_pysolfc(GAMES["bakers-dozen"]) and request.number is None
    assert not request.pysolfc_layout and request.layout == "rules"
    assert request.board == deal(GAMES["bakers-dozen"], 5) and request.source == f"board {board_file.name}"


def test_a_solve_request_names_a_deal_of_a_short_deck_without_pysolfc_and_plays_worrying_back(tmp_path):
    variant = tmp_path / "small.toml"
    variant.write_text('name = "small"\nranks = 5\npiles = 5\n')
    assert SolveRequest.from_options(game=str(variant), number=3).source == "deal 3"
    worrying = SolveRequest.from_options(game="good-measure", number=5, worrying_back=True)
    assert worrying.rules == with_worrying_back(GAMES["good-measure"])


def test_a_solve_request_holds_its_search_and_its_files():
    request = SolveRequest.from_options(
        game="good-measure", number=1, layered=True, checkpoint_file="run.ckpt", checkpoint_every=5.0,
        report_every=0.5, html_file="page.html", as_json=True,
    )  # fmt: skip
    assert request.layered and not request.one_run and request.as_json
    assert request.checkpoint == Path("run.ckpt") and request.checkpoint_every == 5.0
    assert request.report_every == 0.5 and request.html == "page.html"


@pytest.mark.parametrize(
    "options, message",
    [
        ({"game": "klondike", "count": 2}, "unknown game 'klondike'"),
        ({"game": "cruel", "count": 2, "pysolfc": True, "worrying_back": True},
         "give at most one of --pysolfc and --worrying-back"),
        ({"game": "bakers-dozen"}, "give exactly one of --deals RANGE and --count N"),
        ({"game": "bakers-dozen", "deal_range": "1-3", "count": 3}, "give exactly one of --deals RANGE and --count N"),
        ({"game": "bakers-dozen", "count": 0}, "--count must be at least 1"),
        ({"game": "bakers-dozen", "count": 2, "timeout": 0}, "--timeout 0: give a positive number of seconds"),
        ({"game": "bakers-dozen", "count": 2, "max_states": -1}, "--max-states must be positive"),
        ({"game": "bakers-dozen", "count": 2, "jobs": 0}, "--jobs must be at least 1"),
        ({"game": "bakers-dozen", "deal_range": "9-3"}, "deal range '9-3' is reversed"),
        ({"game": "bakers-dozen", "deal_range": "a"}, "deal range 'a': write FIRST-LAST, e.g. 1-1000"),
        ({"game": "bakers-dozen", "count": 2, "memory": "lots"}, "--memory 'lots': give bytes or a size"),
        ({"game": "bakers-dozen", "count": 2, "output": "/dev/null"}, "/dev/null is not a regular file"),
        ({"game": "bakers-dozen", "count": 2, "output": "/no/such/folder/x.jsonl"},
         "/no/such/folder/x.jsonl: there is no folder /no/such/folder"),
        # The first wrong option is the one named.
        ({"game": "bakers-dozen", "count": 0, "jobs": 0, "memory": "x"}, "--count must be at least 1"),
        ({"game": "bakers-dozen", "deal_range": "9-3", "memory": "x", "output": "/dev/null"}, "is reversed"),
        ({"game": "bakers-dozen", "count": 2, "memory": "x", "output": "/dev/null"}, "--memory 'x'"),
    ],
)  # fmt: skip
def test_a_winrate_request_refuses_each_bad_option_with_its_message(options, message):
    assert message in refusal(lambda: WinrateRequest.from_options(**options)).message


def test_a_winrate_request_of_a_count_is_deals_one_to_n_recorded_under_the_game_s_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    request = WinrateRequest.from_options(game="bakers-dozen", count=5)
    assert request.numbers == [1, 2, 3, 4, 5] and request.deals_text == "1-5"
    assert request.output == Path("winrate-bakers-dozen.jsonl")
    assert request.workers == (os.cpu_count() or 1) and request.scheduler is None and request.progress
    assert request.limits == Limits(seconds=60.0, memory=2 << 30, positions=None)
    assert not request.pysolfc_layout and request.layout == "rules" and not request.shorten
    pysolfc = WinrateRequest.from_options(game="cruel", count=1, pysolfc=True)
    assert pysolfc.output == Path("winrate-cruel-pysolfc.jsonl")


def test_a_winrate_request_of_a_range_keeps_its_text_and_its_options(tmp_path):
    out = tmp_path / "bd.tsv"
    request = WinrateRequest.from_options(
        game="bakers-dozen", deal_range="1-3,7,2", jobs=3, output=str(out), timeout=5.0, memory="1G",
        max_states=100, scheduler="tcp://host:8786", progress=False, html_file="report.html", shorten=True,
    )  # fmt: skip
    assert request.numbers == [1, 2, 3, 7] and request.deals_text == "1-3,7,2" and request.output == out
    assert request.workers == 3 and request.scheduler == "tcp://host:8786" and not request.progress
    assert request.limits == Limits(seconds=5.0, memory=1 << 30, positions=100)
    assert request.html == "report.html" and request.shorten


def test_a_winrate_request_takes_pysolfc_s_layouts_on_request_and_with_pysolfc_s_rules(tmp_path):
    out = str(tmp_path / "x.jsonl")
    asked = WinrateRequest.from_options(game="good-measure", count=2, output=out, pysolfc_layout=True)
    assert asked.pysolfc_layout and not asked.pysolfc and asked.layout == "pysolfc"
    implied = WinrateRequest.from_options(game="cruel", count=2, output=out, pysolfc=True)
    assert implied.pysolfc_layout and implied.pysolfc and implied.layout == "pysolfc"
    assert implied.rules == with_pysolfc(GAMES["cruel"])


@pytest.mark.parametrize(
    "text, expected",
    [("300000000", 300_000_000), ("64K", 1 << 16), ("512M", 512 << 20), ("1.5GiB", 3 << 29), (" 2g ", 2 << 30)],
)
def test_memory_sizes(text, expected):
    assert parse_memory(text) == expected


def test_the_options_solve_and_winrate_share_are_the_same_options():
    def shared(command) -> dict:
        """Each shared option's declaration but its help (the page and the layout are worded per command)."""
        names = ("game", "worrying_back", "pysolfc", "pysolfc_layout", "timeout", "memory", "max_states", "html_file")
        declared = {p.name: p.to_info_dict() for p in command.params if p.name in names}
        return {name: {k: v for k, v in info.items() if k != "help"} for name, info in declared.items()}

    assert len(shared(solve_command)) == 8 and shared(solve_command) == shared(winrate_command)
    assert shared(solve_command)["timeout"]["default"] == 60.0 and shared(solve_command)["memory"]["default"] == "2G"


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["solve", "--help"],
        ["solve", "-g", "bakers-dozen", "-d", "1", "--memory", "lots"],
        ["solve", "-g", "bakers-dozen", "-d", "1", "--one-run", "--checkpoint-every", "0"],
        ["winrate", "-g", "bakers-dozen", "-n", "2", "-j", "0"],
    ],
)
def test_help_and_a_refused_option_do_not_load_numba(args):
    """numba takes a good part of a second to load: --help and most refusals answer without it."""
    probe = (
        "import sys; from solver.cli import main\n"
        "try:\n    main(sys.argv[1:], prog_name='bakers')\n"
        "except SystemExit as stop:\n    print(stop.code, 'numba' in sys.modules)"
    )
    root = Path(__file__).resolve().parent.parent
    out = subprocess.run([sys.executable, "-c", probe, *args], capture_output=True, text=True, cwd=root, timeout=60)
    assert out.stdout.split()[-2:] == ["2" if len(args) > 2 else "0", "False"], (out.stdout, out.stderr)
