"""``explain --html``: the page's data (marks before each step, the rules' cells, escaped text), and
the page itself in a real headless Chromium (Playwright), stepped through as a person would: next,
the slider, the arrow keys; what it shows checked (counter, premises, digits placed, candidates
struck, cage sums, thermometer bulbs, chain arrows); no network request but the file itself."""

from __future__ import annotations

import copy
import json
import re
import shutil

import pytest

from sudokulab.core.grid import Shape
from sudokulab.core.puzzle import Puzzle
from sudokulab.formats.boj import parse_puzzle
from sudokulab.formats.puzzle_files import read_puzzle
from sudokulab.reasoning.board import Board
from sudokulab.reasoning.explain import explain
from sudokulab.ui import step_viewer

from ..conftest import EXAMPLES
from ..conftest import run_cli as run

SAMPLE = str(EXAMPLES / "boj2580-sample.txt")
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]
HOSTILE = "</script><script>window.pwned = 1</script><img src=x onerror=\"window.pwned = 2\"> & r1c1"


def sample_document(capsys) -> dict:
    code, out, _ = run(capsys, "explain", SAMPLE, "--json")
    assert code == 0
    return json.loads(out)


def embedded(page: str) -> dict:
    found = re.search(r'<script type="application/json" id="data">(.*?)</script>', page, re.S)
    return json.loads(found[1])


# --- The page's data, without a browser. ----------------------------------------------------------

def test_states_are_the_engines_marks_before_each_step_and_the_solution_after(capsys):
    puzzle = parse_puzzle(open(SAMPLE).read())
    document = sample_document(capsys)
    states = step_viewer.states(puzzle, document["steps"])
    assert len(states) == len(document["steps"]) + 1
    board = Board.start(puzzle)
    assert states[0] == [-board.cands.value(c) if board.placed[c] else board.marks[c] for c in range(81)]
    assert [-v for v in states[-1]] == [d for row in document["grid"] for d in row]
    first = document["steps"][0]["placed"][0]  # r1c1 = 1: a candidate before it, placed after it
    assert states[0][0] >> 0 & 1 and states[1][0] == -1 == -first["digit"]


def test_layout_has_regions_cages_thermometers_and_shaded_groups():
    jigsaw = read_puzzle(str(EXAMPLES / "jigsaw.txt"), regions=str(EXAMPLES / "jigsaw-regions.txt"))
    areas = step_viewer.layout(jigsaw)["areas"]
    regions = [g.cells for g in jigsaw.rules.groups if g.kind == "region"]
    assert len(regions) == 9 and not any(g.kind == "box" for g in jigsaw.rules.groups)
    assert all(len({areas[cell] for cell in cells}) == 1 for cells in regions)  # thick borders around regions,
    assert len(set(areas)) == 9 and areas != step_viewer.layout(parse_puzzle(open(SAMPLE).read()))["areas"]  # not boxes
    killer = read_puzzle(str(EXAMPLES / "killer.txt"), cages=str(EXAMPLES / "killer-cages.txt"))
    cages = step_viewer.layout(killer)["cages"]
    assert len(cages) == len(killer.rules.cages) and cages[0]["sum"] == killer.rules.cages[0].total
    thermo = read_puzzle(str(EXAMPLES / "thermo-6x6.json"))
    assert step_viewer.layout(thermo)["thermometers"][0]["cells"] == list(thermo.rules.thermos[0].cells)
    x = read_puzzle(str(EXAMPLES / "x.json"))
    assert [g["name"] for g in step_viewer.layout(x)["shaded"]] == ["diagonal 1", "diagonal 2"]


def test_text_in_the_data_cannot_close_the_script_or_open_markup(capsys):
    puzzle = parse_puzzle(open(SAMPLE).read())
    document = sample_document(capsys)
    document["steps"][0]["text"] = HOSTILE
    page = step_viewer.render(puzzle, document, title="<b>title</b>")
    assert HOSTILE not in page and "<script>window.pwned" not in page and "<b>title</b>" not in page
    assert embedded(page)["document"]["steps"][0]["text"] == HOSTILE


def test_command_writes_the_page_and_says_so(capsys, tmp_path):
    code, out, err = run(capsys, "explain", SAMPLE, "--html", str(tmp_path / "steps.html"))
    assert code == 0 and err == "14 steps in " + str(tmp_path / "steps.html") + "\n"
    page = (tmp_path / "steps.html").read_text()
    data = embedded(page)
    assert len(data["document"]["steps"]) == 14 and data["givens"][0][1] == 3
    # nothing to fetch: no address but the SVG namespace, no src or href, a policy that forbids loading
    assert set(re.findall(r"\w+://[^\s\"'<>]+", page)) == {"http://www.w3.org/2000/svg"}
    assert not re.search(r"\b(src|href)\s*=", page) and "default-src 'none'" in page


# --- In a real browser. ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    """A headless Chromium (Debian's) under Playwright, with a fresh profile; a clean skip without them."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("playwright is not installed: pip install playwright (and apt-get install chromium)")
    if not shutil.which(CHROMIUM):
        pytest.skip(f"no {CHROMIUM}: apt-get install chromium")
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")), executable_path=CHROMIUM, headless=True,
            args=CHROMIUM_FLAGS, viewport={"width": 1200, "height": 900})
        yield context
        context.close()


class Opened:
    """A page loaded from a file:// URL, with every request it made and every error it raised."""

    def __init__(self, browser, path):
        self.url = path.as_uri()
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.page = browser.new_page()
        self.page.on("request", lambda request: self.requests.append(request.url))
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("console", lambda message: message.type == "error" and self.errors.append(message.text))
        self.page.goto(self.url)

    def counter(self) -> str:
        return self.page.text_content("#counter")

    def close(self) -> None:
        assert self.errors == []
        assert self.requests == [self.url]  # the file itself, nothing else: no network, no other file
        self.page.close()


def page_of(capsys, tmp_path, *argv: str):
    path = tmp_path / "page.html"
    code, _, _ = run(capsys, "explain", *argv, "--html", str(path))
    assert code == 0
    return path, embedded(path.read_text())["document"]


@pytest.mark.slow
def test_browser_steps_through_the_sample(browser, capsys, tmp_path):
    path, document = page_of(capsys, tmp_path, SAMPLE)
    steps = document["steps"]
    opened = Opened(browser, path)
    page = opened.page
    assert opened.counter() == f"step 1 of {len(steps)}"
    assert page.text_content("#text") == "1. " + steps[0]["text"]
    # the premises of step 1 shaded; its digit a green candidate, placed big (blue) after the step
    for premise in steps[0]["premises"]:
        assert "premise" in page.get_attribute(f'rect.cell-bg[data-cell="{premise["cell"]}"]', "class")
    assert page.locator("rect.cell-bg.premise").count() == len({p["cell"] for p in steps[0]["premises"]})
    placed = steps[0]["placed"][0]
    assert page.text_content(f'text.mark.conclusion[data-cell="{placed["cell"]}"]') == str(placed["digit"])
    assert page.locator(f'text.digit[data-cell="{placed["cell"]}"]').count() == 0
    assert page.text_content('text.digit.given[data-cell="r1c2"]') == "3"
    page.click("#next")
    assert opened.counter() == f"step 2 of {len(steps)}"
    assert page.text_content(f'text.digit.placed[data-cell="{placed["cell"]}"]') == str(placed["digit"])
    page.fill("#slider", "7")  # the slider
    assert opened.counter() == f"step 7 of {len(steps)}" and page.text_content("#text").startswith("7. ")
    page.locator("body").press("ArrowRight")
    assert opened.counter() == f"step 8 of {len(steps)}"
    page.locator("body").press("ArrowLeft")
    page.locator("body").press("ArrowLeft")
    assert opened.counter() == f"step 6 of {len(steps)}"
    page.locator("body").press("End")
    assert opened.counter() == f"after step {len(steps)} of {len(steps)}" and page.text_content("#text") == "solved"
    assert page.locator("text.digit").count() == 81 and page.is_disabled("#next")
    page.locator("body").press("Home")
    assert opened.counter() == f"step 1 of {len(steps)}" and page.is_disabled("#prev")
    opened.close()


@pytest.mark.slow
def test_browser_shows_cages_struck_candidates_and_thermometers(browser, capsys, tmp_path):
    path, document = page_of(capsys, tmp_path, str(EXAMPLES / "killer.txt"),
                             "--cages", str(EXAMPLES / "killer-cages.txt"))
    killer = read_puzzle(str(EXAMPLES / "killer.txt"), cages=str(EXAMPLES / "killer-cages.txt"))
    opened = Opened(browser, path)
    page = opened.page
    sums = page.locator("text.cage-sum").all_text_contents()
    assert sorted(map(int, sums)) == sorted(cage.total for cage in killer.rules.cages)
    first = next(i for i, step in enumerate(document["steps"]) if step["removed"])  # 45 rule placements come first
    for _ in range(first):
        page.click("#next")
    struck = document["steps"][first]["removed"]
    assert struck and all(page.locator(f'text.mark.struck[data-cell="{p["cell"]}"][data-digit="{p["digit"]}"]').count()
                          == 1 for p in struck)
    assert page.locator("text.mark.struck").count() == len(struck)
    opened.close()

    path, _ = page_of(capsys, tmp_path, str(EXAMPLES / "thermo-6x6.json"))
    thermo = read_puzzle(str(EXAMPLES / "thermo-6x6.json"))
    opened = Opened(browser, path)
    bulbs = opened.page.locator("circle.thermo-bulb")
    assert bulbs.count() == len(thermo.rules.thermos)
    assert bulbs.first.get_attribute("data-cell") == "r2c1" == f"r{thermo.rules.thermos[0].cells[0] // 6 + 1}c1"
    assert opened.page.locator("rect.cell-bg").count() == 36
    opened.close()


@pytest.mark.slow
def test_browser_draws_a_chain_as_arrows_and_escapes_text(browser, capsys, tmp_path):
    """A hand-made chain on step 2 (the ``chain`` key of explain --json): r1c1=1 -> r3c1≠1 -> r3c1=4,
    then a contradiction in r3c3 reached from r3c1=4; one arrow per node with a source."""
    puzzle = parse_puzzle(open(SAMPLE).read())
    document = copy.deepcopy(sample_document(capsys))
    document["steps"][1]["chain"] = [
        {"cells": ["r1c1"], "digit": 1, "holds": True, "why": "", "source": None},
        {"cells": ["r3c1"], "digit": 1, "holds": False, "why": "box 1", "source": 0},
        {"cells": ["r3c1"], "digit": 4, "holds": True, "why": "r3c1", "source": 1},
        {"cells": ["r3c3"], "digit": 0, "holds": False, "why": "r3c3 has no digit left", "source": 2},
    ]
    document["steps"][2]["text"] = HOSTILE
    path = tmp_path / "chain.html"
    step_viewer.write_page(path, puzzle, document)
    opened = Opened(browser, path)
    page = opened.page
    assert page.locator("line.chain-arrow").count() == 0 and page.is_hidden("#chain-box")
    page.click("#next")
    arrows = page.locator("line.chain-arrow")
    assert arrows.count() == 3
    assert [(arrows.nth(i).get_attribute("data-from"), arrows.nth(i).get_attribute("data-to")) for i in range(3)] == [
        ("0", "1"), ("1", "2"), ("2", "3")]
    assert page.locator("circle.chain-node.holds").count() == 2 and page.locator("circle.chain-node.not").count() == 1
    assert page.locator("rect.chain-end").count() == 1 and page.is_visible("#chain-box")
    assert page.locator("#chain li").count() == 4
    page.click("#next")
    assert page.locator("line.chain-arrow").count() == 0
    assert page.text_content("#text") == "3. " + HOSTILE  # shown as text, never run
    assert page.locator("#panel img").count() == 0 and page.evaluate("window.pwned === undefined")
    opened.close()


@pytest.mark.slow
@pytest.mark.parametrize("size", [4, 16, 25])
def test_browser_any_board_size(browser, capsys, tmp_path, size):
    if size == 25:  # no explanation needed to show a board: the empty 25x25 with no step
        puzzle = Puzzle.empty(Shape(5, 5))
        document = {"size": 25, "box": [5, 5], "rules": ["standard"], "steps": [], "hardest": None,
                    "stopped": "no step", "certified": None, "grid": None, "answer": None}
        path = tmp_path / "big.html"
        step_viewer.write_page(path, puzzle, document)
        steps = 0
    else:
        source = str(EXAMPLES / ("four.txt" if size == 4 else "16x16.txt"))
        path, document = page_of(capsys, tmp_path, source)
        steps = len(document["steps"])
        assert steps == len(explain(read_puzzle(source), minimal=False).steps)
    opened = Opened(browser, path)
    page = opened.page
    assert page.locator("rect.cell-bg").count() == size * size
    assert opened.counter() == (f"step 1 of {steps}" if steps else "no step")
    if size == 25:
        assert page.locator("text.mark").count() == 25 ** 3 and page.text_content("#text") == "stopped: no step"
    opened.close()
