"""The HTML pages: a self-contained replay of a deal and its solution, and a batch's report.

The replay is checked twice: its data (every position, replayed by the
reference engine) here in Python, and the page as a browser draws it, with
headless Chromium (skipped with a message where none is installed; CI
installs one and sets BROWSER_TEST_REQUIRED, so there it must run).
"""

import json
import os
import re
import shutil
import subprocess

import pytest
from click.testing import CliRunner

from solver.cli import main
from solver.game.deals import deal
from solver.game.engine import describe_moves
from solver.game.rules import GAMES, with_worrying_back
from solver.html import replay_page
from solver.search import Budget, solve
from solver.words import FOUND_BY, FOUND_BY_WORDS, LAYERS, LAYOUTS, REASONS, VERDICTS

EXTERNAL = re.compile(r"""(src|href)\s*=|@import|url\(|https?://""", re.IGNORECASE)


def page_data(page: str) -> dict:
    return json.loads(re.search(r'<script id="data" type="application/json">(.*?)</script>', page, re.S).group(1))


def solved_page(rules, number, budget=None):
    board = deal(rules, number)
    result = solve(board, rules, budget or Budget(seconds=30))
    return board, result, replay_page(board, rules, result, f"deal {number}")


WON_DEAL = {"martha": 3, "vineyard": 3}  # a deal of the game that is won (deal 2 is, for the others)


@pytest.mark.parametrize("game", [*GAMES, "spanish-patience-ii-worrying-back"])
def test_a_won_page_holds_every_position_of_the_line_and_nothing_from_outside(game):
    rules = with_worrying_back(GAMES["spanish-patience-ii"]) if game.endswith("worrying-back") else GAMES[game]
    board, result, page = solved_page(rules, WON_DEAL.get(game, 2))
    assert result.verdict == "won"
    assert not EXTERNAL.search(page), EXTERNAL.search(page)
    data = page_data(page)
    assert len(data["frames"]) == len(result.moves) + 1 == len(data["moves"]) + 1
    assert [m["text"] for m in data["moves"]] == describe_moves(board, result.moves, rules)
    first, last = data["frames"][0], data["frames"][-1]
    assert first["piles"] == [list(p) for p in board.piles]
    full = 1 if rules.foundations_down else rules.ranks  # the top card of a full foundation
    assert all(not pile for pile in last["piles"]) and last["found"] == [full] * rules.foundations
    assert first["down"] == sorted(board.down) and (bool(first["down"]) == bool(rules.face_down_rows))


def test_lost_and_unknown_pages_show_the_deal_and_say_why():
    rules = GAMES["good-measure"]
    _, result, page = solved_page(rules, 1)  # lost at the root
    data = page_data(page)
    assert data["verdict"] == "lost" and "before any search" in data["explanation"] and data["moves"] == []
    assert len(data["frames"]) == 1 and sum(map(len, data["frames"][0]["piles"])) == 50
    board = deal(rules, 462)
    budget = Budget(seconds=None, positions=1000)
    data = page_data(replay_page(board, rules, solve(board, rules, budget), "deal 462", budget))
    assert data["verdict"] == "unknown" and "states budget ran out" in data["explanation"]
    assert ["budget", "no time limit, 2 GiB, 1,000 positions"] in data["stats"]


def test_every_search_code_has_its_words():
    """A page says which search decided in words: every code a result may carry has them (the layered
    search's once had none, and its pages showed the code)."""
    import solver.words as words

    spelled = {v for k, v in vars(words).items() if k.isupper() and isinstance(v, str)}
    assert spelled == {*VERDICTS, *REASONS, *FOUND_BY, *LAYOUTS}  # a new word is one of these kinds
    assert set(FOUND_BY_WORDS) == set(FOUND_BY) and all(FOUND_BY_WORDS.values())


def test_a_layered_search_page_says_it_decided():
    rules = GAMES["good-measure"]
    board = deal(rules, 4266)  # lost by the layered search (tests/kernels/test_layered.py)
    result = solve(board, rules, Budget(seconds=60), layered=True)
    assert result.found_by == LAYERS
    data = page_data(replay_page(board, rules, result, "deal 4266"))
    assert ["decided by", "the layered search"] in data["stats"]


@pytest.mark.slow
def test_the_cli_writes_the_pages_and_refuses_a_path_it_cannot_write(tmp_path):
    runner = CliRunner()
    out = tmp_path / "deal-2.html"
    result = runner.invoke(main, ["solve", "-g", "bakers-dozen", "-d", "2", "--html", str(out)])
    assert result.exit_code == 0 and f"Page: {out}" in result.output and out.read_text().startswith("<!DOCTYPE")
    bad = tmp_path / "missing" / "deal-2.html"
    result = runner.invoke(main, ["solve", "-g", "bakers-dozen", "-d", "2", "--json", "--html", str(bad)])
    assert result.exit_code == 2 and "--html" in result.output and "Traceback" not in result.output
    report = tmp_path / "report.html"
    records = tmp_path / "gm.jsonl"
    args = ["winrate", "-g", "good-measure", "-d", "1-12", "-j", "1", "-t", "10", "-o", str(records)]
    result = runner.invoke(main, [*args, "--no-progress", "--html", str(report)])
    assert result.exit_code == 0, result.output
    page = report.read_text()
    assert not EXTERNAL.search(page) and "95% Wilson interval" in page and "<svg" in page
    assert "bakers solve --game good-measure --deal 1 --html deal-1.html" in page  # deal 1 is lost


def browser() -> str | None:
    names = ("chromium", "chromium-browser", "google-chrome")
    found = next((shutil.which(name) for name in names if shutil.which(name)), None)
    if found is None and os.environ.get("BROWSER_TEST_REQUIRED"):
        pytest.fail("BROWSER_TEST_REQUIRED is set but no Chromium is installed")
    return found


def headless(binary: str, *args: str) -> str:
    run = [binary, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1280,900", *args]
    return subprocess.run(run, capture_output=True, text=True, timeout=120, check=True).stdout


@pytest.mark.slow
def test_a_browser_steps_the_replay_to_the_end_with_every_card_up(tmp_path):
    binary = browser()
    if binary is None:
        pytest.skip("no Chromium installed (apt-get install chromium): the page is checked in Python only")
    rules = GAMES["good-measure"]
    board, result, page = solved_page(rules, 2)
    path = tmp_path / "replay.html"
    path.write_text(page)
    texts = describe_moves(board, result.moves, rules)
    for step in (7, "last"):
        dom = headless(binary, "--dump-dom", f"file://{path}#step={step}")
        n = len(texts) if step == "last" else step
        current = re.search(r'id="current"[^>]*data-step="(\d+)"[^>]*>([^<]*)<', dom)
        assert current and int(current.group(1)) == n and current.group(2) == f"{n}. {texts[n - 1]}"
        marked = re.findall(r'<li class="current">([^<]*)</li>', dom)
        assert marked == [texts[n - 1]]
    assert re.findall(r'class="found" data-suit="\d" data-rank="(\d+)"', dom) == [str(rules.ranks)] * 4
    piles = re.findall(r'<div class="pile[^"]*" data-pile="\d+">(.*?)<div class="label">', dom)
    assert len(piles) == rules.piles and not any("data-card" in pile for pile in piles)
    shot = tmp_path / "replay.png"
    headless(binary, f"--screenshot={shot}", f"file://{path}#step=20")
    assert shot.stat().st_size > 10_000 and shot.read_bytes()[:4] == b"\x89PNG"


def test_a_large_batch_s_report_draws_a_bounded_running_rate():
    """A million deals would draw a million points: the page keeps at most RATE_POINTS, and the last is
    the rate over every deal."""
    import numpy as np

    from solver.html import RATE_POINTS, _histogram_svg, _running_rate_svg

    verdicts = np.zeros(100_000, dtype=np.int64)
    verdicts[::50] = 1  # lost: 2%
    verdicts[7] = 2  # one unknown
    svg = _running_rate_svg(verdicts)
    points = svg.split('points="')[1].split('"')[0].split()
    assert 2 <= len(points) <= RATE_POINTS and "1 to 100000" in svg
    assert points[-1].startswith(f"{40 + 560:.1f},")  # the last deal, at the right edge
    histogram = _histogram_svg(np.array([0.0005, 0.002, 0.002, 5.0]))
    assert "<title>2</title>" in histogram and histogram.count("<title>1</title>") == 2
