"""benchmarks/check_lost.py: the script that searches lost verdicts again must say so when one is wrong."""

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "check_lost.py"


def run(tmp_path: Path, deals: list[int], *flags: str, cap: int = 50_000) -> subprocess.CompletedProcess:
    listing = tmp_path / "lost.txt"
    listing.write_text("".join(f"{n}\n" for n in deals))
    command = [sys.executable, str(SCRIPT), str(listing), "-j", "1", "--max-states", str(cap), *flags]
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


def test_true_lost_verdicts_pass(tmp_path):
    done = run(tmp_path, [617, 749], "-g", "ripple-fan")  # Ripple Fan's two lost deals of 1-1000
    assert done.returncode == 0, done.stderr
    assert "| no win | 2 |" in done.stdout


def test_a_won_deal_among_the_lost_fails_and_a_big_one_is_not_counted_as_agreeing(tmp_path):
    done = run(tmp_path, [1, 3, 617], "-g", "ripple-fan", cap=5_000)  # 1 is won; 3 needs more than 5,000 positions
    assert done.returncode == 1
    assert "| WON: the lost verdict is wrong | 1 |" in done.stdout
    assert "| over the cap, not checked | 1 |" in done.stdout
    assert "WON: the lost verdict is wrong: 1\n" in done.stdout


def test_a_list_without_its_game_is_refused_clearly(tmp_path):
    done = run(tmp_path, [617])
    assert done.returncode != 0
    assert "name its game with --game" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_layered_search_checks_whole_deals(tmp_path):
    done = run(tmp_path, [4266, 6611], "-g", "good-measure", "--layered", "--timeout", "60")
    assert done.returncode == 0, done.stderr
    assert "| no win | 2 |" in done.stdout and "the layered search" in done.stdout


def test_the_layered_check_says_when_a_deal_is_won():
    sys.path.insert(0, str(SCRIPT.parent.parent))
    from benchmarks.check_lost import WINS, check_layered
    from solver.game.deals import deal
    from solver.game.engine import reference_search
    from solver.game.rules import GAMES

    rules = GAMES["good-measure"].reduced(5, 4)
    won = next(n for n in range(1, 100) if reference_search(deal(rules, n), rules) is not None)
    assert check_layered((rules, won, 30.0, 1 << 28))[1] == WINS


def test_the_layered_check_refuses_a_game_it_cannot_search(tmp_path):
    done = run(tmp_path, [1], "-g", "spanish-patience", "--layered")
    assert done.returncode != 0 and "layered search needs" in done.stderr
    assert "Traceback" not in done.stderr


def test_records_under_pysolfc_s_rules_are_checked_on_pysolfc_s_layout():
    """A records file of NAME-pysolfc names PySolFC's rules, and its deals lie as PySolFC lays them out."""
    sys.path.insert(0, str(SCRIPT.parent.parent))
    from benchmarks.check_lost import AGREES, check, laid_out, rules_named
    from solver.game.deals import pysolfc_layout
    from solver.game.rules import GAMES, with_pysolfc

    rules = rules_named("spanish-patience-pysolfc")
    assert rules == with_pysolfc(GAMES["spanish-patience"]) and laid_out(rules, 64) == pysolfc_layout(rules, 64)
    assert check((rules, 5081, 50_000))[1] == AGREES  # lost at the root, and in 38 positions
