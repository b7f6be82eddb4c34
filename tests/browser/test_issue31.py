"""Issue 31's defects of the Play panel, each checked in a real browser."""
import pytest

from tests.browser.test_play import choose, settle, wait_for_human


def thinking(page) -> None:
    page.wait_for_function("() => document.querySelector('#status').textContent.includes('is thinking')")


def test_no_move_is_taken_for_the_ai_while_it_thinks(page):
    """Connect Four: while O (the AI) thinks, a move button or a cell played O's move for it, and the page
    then hung on "thinking". Neither takes a move now, and the AI's reply comes as usual."""
    choose(page, "connect4", "X", "alphabeta", 4000)
    page.locator('svg.board g.playable[data-cell="3"]').click()
    thinking(page)
    assert page.locator("svg.board g.playable").count() == 0
    buttons = page.locator("#moves button")
    assert buttons.count() > 0 and all(b.is_disabled() for b in buttons.all())
    buttons.first.dispatch_event("click")  # a click the browser would still deliver
    page.locator('svg.board g[data-cell="0"]').dispatch_event("click")
    settle(page)
    assert page.locator("#move-list li").count() == 1
    assert "O (AI" in page.locator("#status").text_content()
    page.click("#stop")
    page.click("#ai-move")  # the AI asked again plays O's move, and X is to move
    wait_for_human(page, "X", ply=3)
    assert [li.get_attribute("data-mover") for li in page.locator("#move-list li").all()] == ["X", "O"]


def test_chess_no_move_is_taken_for_black_while_the_ai_thinks(page):
    choose(page, "chess", "white", "alphabeta", 4000)
    page.click('svg.board [data-square="e2"]')
    page.click('svg.board [data-square="e4"]')
    thinking(page)
    page.locator('svg.board [data-square="e7"]').dispatch_event("click")
    page.locator('svg.board [data-square="e5"]').dispatch_event("click")
    settle(page)
    assert page.locator("#move-list li").count() == 1
    assert page.locator('svg.board [data-square="e7"]').get_attribute("data-piece") == "p"
    wait_for_human(page, "white", ply=3)
    assert page.locator("#move-list li").count() == 2


def test_othello_is_drawn_on_green_with_discs_coordinates_legal_squares_and_counts(page):
    """Othello was drawn as a draughts board: brown squares, numbers 1-32, discs lettered "B"/"W"."""
    choose(page, "othello", "B", "alphabeta", 300)
    wait_for_human(page, "B", ply=1)
    board = page.locator("svg.board")
    assert "othello" in board.get_attribute("class").split()
    assert board.locator(".cell-name").count() == 0 and board.locator(".piece-label").count() == 0
    fill = board.locator('g[data-square="a1"] rect').evaluate("r => getComputedStyle(r).fill")
    red, green, blue = (int(x) for x in fill[fill.index("(") + 1:-1].split(","))
    assert green > red + 40 and green > blue + 40, fill
    assert board.locator(".disc.black").count() == 2 and board.locator(".disc.white").count() == 2
    assert board.locator('g[data-square="d4"] .disc').get_attribute("class") == "disc white"
    assert board.locator('g[data-square="e4"] .disc').get_attribute("class") == "disc black"
    black = board.locator(".disc.black").first.evaluate("c => getComputedStyle(c).fill")
    assert black in ("rgb(17, 17, 17)",), black
    coordinates = [t.text_content() for t in board.locator(".coordinate").all()]
    assert all(c in coordinates for c in "abcdefgh12345678")
    legal = {g.get_attribute("data-square") for g in board.locator("g.legal").all()}
    assert legal == {"d3", "c4", "f5", "e6"}
    assert page.get_by_test_id("disc-count").text_content() == "Black 2 · White 2"
    board.locator('g[data-square="d3"]').click()
    page.wait_for_function("() => document.querySelectorAll('#move-list li').length >= 1")
    assert page.locator("#move-list li").first.text_content() == "d3"
    wait_for_human(page, "B", ply=3)
    counts = page.get_by_test_id("disc-count").text_content()
    assert counts.startswith("Black ") and " · White " in counts
    assert int(counts.split()[1]) + int(counts.split()[-1]) == 6 == page.locator("svg.board .disc").count()


def fill_of(page, square: str) -> str:
    return page.locator(f'svg.board [data-square="{square}"] rect').evaluate("r => getComputedStyle(r).fill")


def test_chess_legal_targets_and_the_selection_show_on_dark_squares_too(page):
    """The dark squares' rule was more specific than the target's and the selected square's: b1's a3 and
    c3, e2's e3 were not marked."""
    choose(page, "chess", "white", "alphabeta", 300)
    wait_for_human(page, "white", ply=1)
    plain = {name: fill_of(page, name) for name in ("a3", "b3", "c3", "e3", "e4", "f3", "h3")}
    assert plain["a3"] == plain["c3"] == plain["e3"] != plain["b3"] == plain["e4"]  # dark, light
    for piece, targets in (("b1", ("a3", "c3")), ("e2", ("e3", "e4")), ("g1", ("f3", "h3"))):
        page.click(f'svg.board [data-square="{piece}"]')
        for name in targets:
            assert "target" in page.locator(f'svg.board [data-square="{name}"]').get_attribute("class")
            assert fill_of(page, name) != plain[name], name
        assert fill_of(page, piece) == "rgb(143, 209, 143)", piece  # selected, g1 a dark square
    assert fill_of(page, "e3") == plain["e3"] and fill_of(page, "e4") == plain["e4"]  # unmarked again


BIG_TILES = {"board": [[2, 4, 8, 16], [1024, 2048, 4096, 0], [0, 2, 0, 0], [0, 0, 2, 0]]}
# A search's answer as 2048's expectimax gives it: values close to 1, and a depth_completed far above the
# deepest ply visited (max_depth).
CANNED_RESULT = {
    "move": "left", "value": 0.99962, "perspective": "player", "outcome": None, "plies_to_end": None,
    "pv": ["left"], "moves": [
        {"move": "up", "value": 0.99957, "bound": "exact", "visits": None},
        {"move": "down", "value": 0.5, "bound": "exact", "visits": None},
        {"move": "left", "value": 0.99962, "bound": "exact", "visits": None},
        {"move": "right", "value": 0.999571, "bound": "exact", "visits": None}],
    "stats": {"nodes": 5000, "leaves": 4000, "depth_completed": 429, "max_depth": 4, "cutoffs": 0, "tt_hits": 0,
              "iterations": None, "time_ms": 100.0, "nodes_per_second": 50000, "timed_out": True,
              "stop_reason": "time_limit", "core": "python"}}


def test_2048_tiles_coloured_and_fitting_values_told_apart_and_the_deepest_ply(page):
    """2048's tiles were never coloured, 1024 and up overflowed their cells, every root move's value read
    "1", and "depth 429" was shown where the deepest ply visited was 4."""
    import json
    choose(page, "2048", "player", "expectimax", 300)
    wait_for_human(page, "player", ply=1)
    page.click("#paste summary")
    page.fill("#state-text", json.dumps(BIG_TILES))
    page.click("#load-state")
    wait_for_human(page, "player", ply=1)
    fills = {}
    for value in ("2", "8", "1024", "2048", "4096"):
        tile = page.locator(f'svg.board g[data-piece="{value}"]').first
        fills[value] = tile.locator("rect").evaluate("r => getComputedStyle(r).fill")
        width = tile.locator("text").evaluate("t => t.getBBox().width")
        assert width < 48 - 4, (value, width)  # inside its cell
    empty = page.locator('svg.board g[data-cell="7"] rect').evaluate("r => getComputedStyle(r).fill")
    assert len(set(fills.values()) | {empty}) == 6, (fills, empty)  # every value a colour of its own
    page.route("**/v1/search/stream", lambda route: route.fulfill(
        status=200, content_type="text/event-stream",
        body=f"event: result\ndata: {json.dumps(CANNED_RESULT)}\n\n"))
    page.click("#ai-move")
    page.wait_for_selector('#stats[data-kind="result"]')
    notes = [t.text_content() for t in page.locator("#bars text.bar-value").all()]
    assert notes == ["0.99957", "0.5", "0.99962", "0.999571"], notes
    stat = lambda name: page.locator(f'#stats [data-stat="{name}"]').text_content()
    assert stat("deepest ply") == "4" and stat("depth completed") == "429"
    assert stat("value") == "0.99962"


STATUSES = """() => {
    window.statuses = [];
    new MutationObserver(() => window.statuses.push(document.querySelector('#status').textContent))
        .observe(document.querySelector('#status'), {childList: true, characterData: true, subtree: true});
}"""


@pytest.mark.parametrize("cancel", ["new game", "undo"])
def test_no_false_busy_server_after_cancelling_the_page_s_own_search(page, cancel):
    """New game (the AI plays first) or Undo and a move during the AI's search: the next search was refused
    429 for the page's own cancelled search, still counted on the server, and the page said "The server is
    busy" and waited a second. It now asks again at once, still thinking."""
    choose(page, "connect4", "O" if cancel == "new game" else "X", "alphabeta", 4000)
    if cancel == "undo":
        page.locator('svg.board g.playable[data-cell="3"]').click()
    thinking(page)
    page.evaluate(STATUSES)
    searches = []
    page.on("response", lambda r: searches.append(r.status) if r.url.endswith("/v1/search/stream") else None)
    if cancel == "new game":
        page.click("#new-game")
    else:
        page.click("#undo")
        wait_for_human(page, "X", ply=1)
        page.locator('svg.board g.playable[data-cell="3"]').click()
    page.wait_for_function("() => window.statuses.some((s) => s.includes('is thinking'))")
    page.wait_for_timeout(1200)  # longer than the busy server's wait of a second
    statuses = page.evaluate("window.statuses")
    assert not [s for s in statuses if "busy" in s], statuses
    assert 200 in searches, searches  # the new search was let in within the second
    assert "is thinking" in page.locator("#status").text_content()


@pytest.mark.parametrize("width,height", [(1280, 800), (390, 844)])
def test_the_explicit_tree_in_play_fits_the_page(browser, server, width, height):
    """Figure 5.2's tree in Play: D's subtree was cut off at 1280 px, and the phone page scrolled sideways
    (760 px wide). The whole tree now fits its column, and the page its viewport."""
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(f"{server}/play")
    page.wait_for_selector("body[data-ready=true]")
    choose(page, "tree", "MAX", "alphabeta", 300)
    wait_for_human(page, "MAX", ply=1)
    area = page.locator("#board").bounding_box()
    tree = page.locator("#board svg.tree").bounding_box()
    d = page.locator('#board svg.tree [data-path=\'["D"]\']').bounding_box()
    scroll_width = page.evaluate("() => document.documentElement.scrollWidth")
    context.close()
    assert tree["x"] >= area["x"] - 1 and tree["x"] + tree["width"] <= area["x"] + area["width"] + 1, (tree, area)
    assert d["x"] + d["width"] <= min(area["x"] + area["width"], width) + 1, (d, area)
    assert scroll_width <= width, scroll_width


LIVE_LINES = """() => {
    window.lines = [];
    new MutationObserver(() => {
        const stats = document.querySelector('#stats');
        const pv = stats.querySelector('[data-stat="PV"]'), best = stats.querySelector('[data-stat="best move"]');
        if (pv) window.lines.push([stats.dataset.kind, best ? best.textContent : '', pv.textContent]);
    }).observe(document.querySelector('#stats'), {childList: true, characterData: true, subtree: true});
}"""


def test_chess_the_live_line_is_in_san_as_the_result_is(page):
    """The live PV was UCI (f6e4), the result SAN: the notation changed mid-search. Both are SAN now."""
    import re
    choose(page, "chess", "white", "alphabeta", 2500)
    page.evaluate(LIVE_LINES)
    page.click('svg.board [data-square="g1"]')
    page.click('svg.board [data-square="f3"]')
    wait_for_human(page, "white", ply=3)
    lines = page.evaluate("window.lines")
    live = [(best, pv) for kind, best, pv in lines if kind == "info"]
    assert any(pv for _, pv in live), lines
    uci = re.compile(r"\b[a-h][1-8][a-h][1-8][qrbn]?\b")
    assert not [entry for entry in live if uci.search(" ".join(entry))], live
    assert all(best and not uci.search(best) for best, _ in live), live
    assert not uci.search(page.locator('#stats [data-stat="PV"]').text_content())
