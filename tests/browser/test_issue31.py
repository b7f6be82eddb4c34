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
    assert page.locator("#move-list li .move-text").first.text_content() == "d3"
    wait_for_human(page, "B", ply=3)
    counts = page.get_by_test_id("disc-count").text_content()
    assert counts.startswith("Black ") and " · White " in counts
    assert int(counts.split()[1]) + int(counts.split()[-1]) == 6 == page.locator("svg.board .disc").count()


def fill_of(page, square: str) -> str:
    return page.locator(f'svg.board [data-square="{square}"] rect.cell').evaluate("r => getComputedStyle(r).fill")


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


def overlaps(a, b) -> bool:
    return not (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])


LONG_PLAYS = {"move": "bar/22 22/16 16/10 10/4", "value": 0.5, "score": {"value": 0.5}, "win_probability": None,
              "perspective": "X", "outcome": None, "plies_to_end": None, "pv": ["bar/22 22/16 16/10 10/4"],
              "moves": [{"move": "bar/22 22/16 16/10 10/4", "value": 0.5, "score": {"value": 0.5},
                         "win_probability": None, "bound": "exact", "visits": None},
                        {"move": "13/7 13/7 8/2 8/2", "value": -0.25, "score": {"value": -0.25},
                         "win_probability": None, "bound": "upper", "visits": None}],
              "stats": CANNED_RESULT["stats"]}


def test_backgammon_dice_clear_of_the_point_numbers_a_colour_legend_and_long_plays_in_the_chart(page):
    """The dice text overprinted the point numbers, nothing said which colour is X, and long plays were
    clipped at the chart's left edge."""
    import json
    import re
    choose(page, "backgammon", "X", "expectimax", 300)
    wait_for_human(page, "X", ply=2)
    dice = page.locator('[data-testid="dice"]').bounding_box()
    numbers = [t.bounding_box() for t in page.locator("svg.backgammon .point-number").all()]
    assert len(numbers) == 24 and not [n for n in numbers if overlaps(dice, n)]
    labels = [b.text_content() for b in page.locator("#moves button").all()]
    assert labels and all(re.fullmatch(r"[\w/*() -]+", t) for t in labels), labels  # plays, not objects
    legend = page.get_by_test_id("bg-legend")
    assert "X" in legend.text_content() and "O" in legend.text_content()
    checker = page.locator('svg.backgammon g[data-point="6"] .checker').first.evaluate("c => c.getAttribute('fill')")
    swatch = legend.locator('[data-side="X"] .swatch').evaluate("s => getComputedStyle(s).backgroundColor")
    red, green, blue = (int(checker[i:i + 2], 16) for i in (1, 3, 5))
    assert swatch == f"rgb({red}, {green}, {blue})", (checker, swatch)
    page.route("**/v1/search/stream", lambda route: route.fulfill(
        status=200, content_type="text/event-stream", body=f"event: result\ndata: {json.dumps(LONG_PLAYS)}\n\n"))
    page.select_option("#side", "both (hot seat)")
    page.click("#ai-move")
    page.wait_for_selector('#stats[data-kind="result"]')
    for label in page.locator("#bars text.bar-label").all():
        assert label.evaluate("t => t.getBBox().x") >= 0, label.text_content()
    assert [t.text_content() for t in page.locator("#bars text.bar-value").all()] == ["0.5", "≤ -0.25"]
    assert {li.get_attribute("data-bound") for li in page.locator("#bars [data-testid=bars-legend] li").all()} \
        == {"exact", "upper"}


def test_pacman_offers_the_maze_s_ghosts_shows_the_score_and_who_moved(page):
    """Pacman offered Ghost1-Ghost8 for a two-ghost maze, showed no score, and its move list did not say
    who moved."""
    choose(page, "pacman", "Pacman", "expectimax", 300)
    page.fill("#depth", "2")
    page.click("#new-game")
    wait_for_human(page, "Pacman", ply=1)
    sides = [o.text_content() for o in page.locator("#side option").all()]
    assert sides == ["Pacman", "Ghost1", "Ghost2", "both (hot seat)", "nobody (AI against AI)"]
    assert page.get_by_test_id("maze-score").text_content() == "Score 0"
    page.keyboard.press("ArrowLeft")  # West, onto a food dot: +10, -1 for the time
    wait_for_human(page, "Pacman", ply=4)
    assert page.get_by_test_id("maze-score").text_content() == "Score 9"
    movers = [li.locator(".mover").text_content() for li in page.locator("#move-list li").all()]
    assert movers == ["Pacman", "Ghost1", "Ghost2"]


def test_a_paste_error_shows_inside_a_phone_s_viewport(browser, server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{server}/play")
    page.wait_for_selector("body[data-ready=true]")
    choose(page, "chess", "white", "alphabeta", 300)  # a board as tall as the phone is wide
    wait_for_human(page, "white", ply=1)
    page.click("#paste summary")
    page.fill("#state-text", "not a position")
    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")  # scrolled down to the box
    page.click("#load-state")
    page.locator("#play-error").wait_for(state="visible")
    page.wait_for_timeout(300)
    box = page.locator("#play-error").bounding_box()
    context.close()
    assert box["y"] >= 0 and box["y"] + box["height"] <= 844, box


def test_the_focus_ring_of_a_board_cell_shows_whole(page):
    """The cells' outline was cut by the board's edge and covered by the next cells."""
    choose(page, "tictactoe", "X", "alphabeta", 300)
    wait_for_human(page, "X", ply=1)
    page.focus('svg.board g[data-cell="0"]')
    page.keyboard.press("Tab")
    page.keyboard.press("Shift+Tab")  # focused by the keyboard: :focus-visible
    cell = page.locator('svg.board g[data-cell="0"]')
    assert cell.evaluate("g => getComputedStyle(g).outlineStyle") == "none"
    ring = cell.locator(".focus-ring")
    assert ring.evaluate("r => getComputedStyle(r).stroke") == "rgb(31, 111, 235)"
    board, box = page.locator("svg.board").bounding_box(), ring.bounding_box()
    assert box["x"] >= board["x"] and box["y"] >= board["y"], (box, board)
    assert page.locator('svg.board g[data-cell="1"] .focus-ring').evaluate("r => getComputedStyle(r).stroke") == "none"


def test_after_undo_the_panel_no_longer_shows_the_undone_answer(page):
    choose(page, "connect4", "X", "alphabeta", 300)
    page.locator('svg.board g.playable[data-cell="3"]').click()
    wait_for_human(page, "X", ply=3)
    assert page.locator("#stats").get_attribute("data-kind") == "result" and page.locator("#bars rect").count()
    page.click("#undo")
    wait_for_human(page, "X", ply=1)
    assert page.locator("#stats dd").count() == 0 and page.locator("#bars rect").count() == 0
    assert page.get_by_test_id("eval").is_hidden()


def test_the_help_line_tells_how_to_play_each_game(page):
    helps = {}
    for game, side in (("chess", "white"), ("connect4", "X"), ("2048", "player"), ("pacman", "Pacman"),
                       ("othello", "B"), ("backgammon", "X"), ("tree", "MAX")):
        choose(page, game, side, page.evaluate("() => document.querySelector('#algorithm').value"), 300)
        page.wait_for_function("() => !document.querySelector('#board').classList.contains('checking')")
        helps[game] = page.get_by_test_id("help").text_content()
    assert len(set(helps.values())) == len(helps), helps
    assert "column" in helps["connect4"] and "arrow keys" in helps["2048"] and "Pacman" in helps["pacman"]


def test_a_hash_set_on_the_open_page_switches_the_view(page):
    """A #watch set on an open page did nothing."""
    page.evaluate("() => { location.hash = '#watch'; }")
    page.wait_for_function("() => !document.querySelector('#watch').hidden")
    assert page.locator("#play").is_hidden() and page.locator("#tab-watch").get_attribute("aria-selected") == "true"
    page.evaluate("() => { location.hash = '#play'; }")
    page.wait_for_function("() => !document.querySelector('#play').hidden")
    assert page.locator("#watch").is_hidden()


def test_a_reload_keeps_the_game_and_the_settings_and_a_link_shares_the_position(page, browser):
    """A reload lost the game and the settings. They are kept (the position in the URL too, so a link opened
    elsewhere shows it)."""
    choose(page, "connect4", "X", "alphabeta", 300)
    page.fill("#depth", "3")
    page.locator("#depth").dispatch_event("change")
    page.locator('svg.board g.playable[data-cell="3"]').click()
    wait_for_human(page, "X", ply=3)
    link = page.url
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    wait_for_human(page, "X", ply=3)
    assert page.input_value("#game") == "connect4" and page.input_value("#depth") == "3"
    assert page.input_value("#time-limit") == "300"
    assert page.locator("#move-list li").count() == 2 and page.locator("svg.board [data-piece]").count() == 2
    elsewhere = browser.new_context(viewport={"width": 1100, "height": 900})
    shared = elsewhere.new_page()
    shared.goto(link)
    shared.wait_for_selector("body[data-ready=true]")
    wait_for_human(shared, "X", ply=1)
    pieces = shared.locator("svg.board [data-piece]").count()
    game, depth = shared.input_value("#game"), shared.input_value("#depth")
    elsewhere.close()
    assert (pieces, game, depth) == (2, "connect4", "3")
