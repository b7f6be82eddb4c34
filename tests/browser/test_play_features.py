"""Issue 31's features of the Play panel in a real browser, through the real server: levels and hints, the
evaluation bar, the move history with FEN and PGN, AI against AI with a delay."""
import json
import re

import requests

from tests.browser.test_play import choose, wait_for_human


def searches_sent(page) -> list:
    sent = []
    page.on("request", lambda r: sent.append(json.loads(r.post_data)) if r.url.endswith(("/v1/search/stream",
                                                                                          "/v1/search")) else None)
    return sent


def test_the_level_control_plays_auto_at_that_level(page):
    choose(page, "connect4", "X", "auto", 300)
    wait_for_human(page, "X", ply=1)
    level = page.get_by_test_id("level")
    assert level.is_visible() and level.is_enabled()
    assert page.locator("#level-name").text_content() == "10 · full strength"
    level.fill("2")
    assert page.locator("#level-name").text_content() == "2 · novice"
    sent = searches_sent(page)
    page.locator('svg.board g.playable[data-cell="3"]').click()
    wait_for_human(page, "X", ply=3)
    assert sent[-1]["algorithm"] == {"name": "auto", "level": 2}
    assert page.locator('#stats [data-stat="level"]').text_content() == "2"  # as the answer says it ran
    page.select_option("#algorithm", "alphabeta")
    assert level.is_disabled()  # levels are auto's


def test_a_hint_marks_the_engine_s_best_move_for_the_human_and_plays_nothing(page, server):
    choose(page, "tictactoe", "X", "alphabeta", 500)
    page.click("#paste summary")
    page.fill("#state-text", json.dumps({"board": ["XX.", "OO.", "..."]}))
    page.click("#load-state")
    wait_for_human(page, "X", ply=1)
    sent = searches_sent(page)
    page.click("#hint")
    page.wait_for_function("() => document.querySelector('#status').textContent.startsWith('Hint for X')")
    assert sent[-1]["algorithm"] == {"name": "auto"}
    assert page.locator("#moves button.hinted").get_attribute("data-move") == "2"  # the win at once
    assert page.locator("svg.board g.hinted").get_attribute("data-cell") == "2"
    assert page.locator("svg.board .arrow.hint").get_attribute("data-move") == "2"  # and drawn on the board
    assert page.locator("#move-list li").count() == 0 and page.locator("svg.board [data-piece]").count() == 4
    page.locator('svg.board g.playable[data-cell="2"]').click()
    page.wait_for_function("() => document.querySelector('#status').textContent.includes('X wins')")
    assert page.locator("svg.board g.hinted").count() == 0


def test_the_evaluation_bar_keeps_the_first_player_s_point_of_view(page):
    """Chess: Black's search answers from Black's point of view; the bar shows White's."""
    choose(page, "chess", "white", "alphabeta", 400)
    page.click("#paste summary")  # White a queen up, Black (the AI) to move
    page.fill("#state-text", "4k3/8/8/8/8/8/8/3QK3 b - - 0 1")
    page.click("#load-state")
    wait_for_human(page, "white", ply=2)
    bar = page.get_by_test_id("eval")
    assert bar.is_visible() and "white" in bar.text_content()
    text = page.get_by_test_id("eval-text").text_content()
    assert text.startswith("+") or text.startswith("M"), text  # good for White
    share = float(bar.locator("[role=meter]").get_attribute("aria-valuenow"))
    assert share > 90, share


def test_the_evaluation_bar_in_a_game_without_probabilities_shows_the_value(page):
    choose(page, "2048", "nobody (AI against AI)", "expectimax", 200)
    page.wait_for_selector("#eval:not([hidden])")
    assert page.get_by_test_id("eval-text").text_content() != "–"
    page.select_option("#side", "player")


def test_chess_moves_in_pairs_clickable_fen_and_pgn(page, server):
    choose(page, "chess", "white", "alphabeta", 300)
    page.fill("#depth", "1")
    for a, b in (("e2", "e4"), ("d2", "d4")):
        wait_for_human(page, "white")
        page.click(f'svg.board [data-square="{a}"]')
        page.click(f'svg.board [data-square="{b}"]')
    wait_for_human(page, "white", ply=5)
    items = page.locator("#move-list li")
    assert items.count() == 4
    assert items.nth(0).locator(".num").text_content() == "1." and items.nth(1).locator(".num").count() == 0
    assert items.nth(2).locator(".num").text_content() == "2."
    texts = [t.text_content() for t in page.locator("#move-list .move-text").all()]
    assert texts[0] == "e4" and texts[2] == "d4"
    page.click("#export summary")
    fen = page.get_by_test_id("fen").input_value()
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.click("#copy-fen")
    page.wait_for_function("() => document.querySelector('#copy-fen').textContent === 'Copied'")
    assert page.evaluate("navigator.clipboard.readText()") == fen
    page.evaluate("() => { navigator.clipboard.writeText = () => Promise.reject(new Error('not allowed')); }")
    page.click("#copy-pgn")  # where the page may not write the clipboard: the text is selected to copy
    page.wait_for_function("() => document.querySelector('#copy-pgn').textContent.startsWith('Selected')")
    assert page.evaluate("() => { const t = document.querySelector('#pgn'); "
                         "return t.selectionStart === 0 && t.selectionEnd === t.value.length; }")
    pgn = page.get_by_test_id("pgn").input_value()
    assert re.search(rf"1\. e4 {re.escape(texts[1])} 2\. d4 {re.escape(texts[3])} \*", pgn), pgn
    assert '[White "Human"]' in pgn
    state = json.loads(page.input_value("#state-text"))
    rules = requests.post(f"{server}/v1/games/chess/legal-moves", json={"state": state}, timeout=10).json()
    assert fen == rules["fen"]
    page.locator("#move-list .move-text").nth(0).click()  # back to the position after 1. e4
    wait_for_human(page, "black", ply=2)
    assert page.locator('svg.board [data-square="e4"]').get_attribute("data-piece") == "P"
    assert page.locator('svg.board [data-square="d4"]').get_attribute("data-piece") is None
    assert page.locator("#move-list li.after").count() == 3 and items.count() == 4  # still listed, greyed
    assert page.get_by_test_id("pgn").input_value().rstrip().endswith("1. e4 *")
    assert page.locator("#stats dd").count() == 0  # White's move: no search chose it
    page.locator("#move-list .move-text").nth(3).click()  # and forward again: the AI's answer that chose 2...
    wait_for_human(page, "white", ply=5)
    assert page.locator("#move-list li.after").count() == 0
    assert page.locator('#stats [data-stat="move"]').text_content() == texts[3]
    assert page.locator("#bars rect.bar").count() > 0 and page.get_by_test_id("eval").is_visible()


def test_ai_against_ai_waits_the_delay_set_between_moves(page):
    choose(page, "tictactoe", "X", "alphabeta", 100)
    wait_for_human(page, "X", ply=1)
    page.fill("#ai-delay", "700")
    # When each search is sent, on the page's own clock: a listener in the test hears of a request later,
    # by a lag that varies with the machine's load.
    page.evaluate("""() => {
        window.searchTimes = [];
        const send = window.fetch;
        window.fetch = (url, options) => {
            if (String(url).endsWith('/v1/search/stream')) window.searchTimes.push(performance.now());
            return send.call(window, url, options);
        };
    }""")
    page.select_option("#side", "nobody (AI against AI)")
    page.wait_for_function("() => document.querySelectorAll('#move-list li').length >= 3")
    page.wait_for_function("() => !document.querySelector('#stop').disabled")
    page.click("#stop")
    count = page.locator("#move-list li").count()
    page.wait_for_timeout(1000)
    assert page.locator("#move-list li").count() == count  # stopped, in its search or its wait
    times = page.evaluate("() => window.searchTimes")
    gaps = [b - a for a, b in zip(times, times[1:])]
    assert gaps and min(gaps) >= 700, gaps


def test_chess_turned_round_for_black_with_legal_dots_and_the_last_move(page):
    choose(page, "chess", "black", "alphabeta", 300)
    page.fill("#depth", "1")
    wait_for_human(page, "black", ply=2)  # White (the AI) moved first
    box = lambda square: page.locator(f'svg.board [data-square="{square}"]').bounding_box()
    assert box("a8")["y"] > box("a1")["y"] and box("a8")["x"] > box("h8")["x"]  # Black at the bottom
    last = [g.get_attribute("data-square") for g in page.locator("svg.board g.last").all()]
    assert len(last) == 2, last  # White's move: from and to
    page.click('svg.board [data-square="g8"]')
    dots = {g.get_attribute("data-square") for g in page.locator("svg.board g.target").all()}
    assert dots == {"f6", "h6"}
    for square in dots:
        dot = page.locator(f'svg.board [data-square="{square}"] .target-dot')
        assert dot.evaluate("d => getComputedStyle(d).display") != "none"
    assert page.locator('svg.board [data-square="e6"] .target-dot').evaluate("d => getComputedStyle(d).display") == "none"


def test_connect_four_drop_preview_last_move_and_winning_line(page):
    choose(page, "connect4", "both (hot seat)", "alphabeta", 300)
    wait_for_human(page, "X", ply=1)
    page.locator('svg.board g[data-cell="3"]').hover()  # the top of column 3: the disc lands at the bottom
    assert page.locator("svg.board g.preview").get_attribute("data-cell") == str(5 * 7 + 3)
    page.click("#paste summary")
    page.fill("#state-text", json.dumps({"board": [".......", ".......", ".......", ".......", "...OOO.", "...XXX."]}))
    page.click("#load-state")
    wait_for_human(page, "X", ply=1)
    page.locator('svg.board g.playable[data-cell="2"]').click()  # X: 3, 4, 5 and now 6 in the bottom row
    page.wait_for_function("() => document.querySelector('#status').textContent.includes('X wins')")
    assert page.locator("svg.board g.last").get_attribute("data-cell") == str(5 * 7 + 2)
    win = sorted(int(g.get_attribute("data-cell")) for g in page.locator("svg.board g.win").all())
    assert win == [35 + 2, 35 + 3, 35 + 4, 35 + 5]


def test_2048_the_score_of_the_merges(page):
    choose(page, "2048", "player", "expectimax", 300)
    page.click("#paste summary")
    page.fill("#state-text", json.dumps({"board": [[2, 2, 4, 4], [0, 0, 0, 0], [8, 8, 0, 0], [0, 0, 0, 0]]}))
    page.click("#load-state")
    wait_for_human(page, "player", ply=1)
    assert page.get_by_test_id("tile-score").text_content() == "Score 0"
    page.keyboard.press("ArrowLeft")  # 2+2, 4+4, 8+8: 4 + 8 + 16
    wait_for_human(page, "player", ply=3)
    assert page.get_by_test_id("tile-score").text_content() == "Score 28"


def test_a_game_kept_in_a_shape_the_page_cannot_show_gives_a_new_game(page):
    page.evaluate("""() => localStorage.setItem('tactician.play', JSON.stringify(
        {settings: {game: 'connect4'}, line: [{state: {board: 7}, info: null}], shown: 1}))""")
    page.goto(page.url.split("#")[0])
    page.wait_for_selector("body[data-ready=true]")
    wait_for_human(page, "X", ply=1)
    assert page.input_value("#game") == "connect4" and page.locator("svg.board [data-piece]").count() == 0
    assert "could not be shown" in page.locator("#play-error").text_content()


def test_chess_with_its_bar_history_and_export_fits_a_phone(browser, server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{server}/play")
    page.wait_for_selector("body[data-ready=true]")
    choose(page, "chess", "black", "alphabeta", 300)
    page.fill("#depth", "1")
    wait_for_human(page, "black", ply=2)
    page.click("#export summary")
    visible = page.get_by_test_id("eval").is_visible()
    width = page.evaluate("() => document.documentElement.scrollWidth")
    board = page.locator("svg.board").bounding_box()
    context.close()
    assert visible and width <= 390, width
    assert board["x"] >= 0 and board["x"] + board["width"] <= 390, board


def test_pacman_s_evaluation_bar_is_pacman_s_after_a_ghost_s_search(page):
    """The ghosts' searches answer from their own point of view; Pacman's side is the bar's, negated."""
    choose(page, "pacman", "Pacman", "expectimax", 300)
    page.fill("#depth", "2")
    page.click("#new-game")
    wait_for_human(page, "Pacman", ply=1)
    page.keyboard.press("ArrowLeft")
    wait_for_human(page, "Pacman", ply=4)  # the last search was Ghost2's
    assert page.locator('#stats [data-stat="perspective"]').text_content() == "Ghost2"
    value = float(page.locator('#stats [data-stat="value"]').text_content())
    assert page.locator("#eval .eval-view").text_content() == "Pacman:"
    shown = float(page.get_by_test_id("eval-text").text_content())
    assert abs(shown + value) < 0.01, (shown, value)


def test_a_level_value_seen_from_the_other_side_reads_0_not_minus_0(page):
    """Found in the README's screenshot: O's value 0, turned to X's point of view, read "-0"."""
    text = page.evaluate("async () => (await import('/play/assets/evalbar.js')).evaluation("
                         "{perspective: 'O', score: {value: 0}, win_probability: 0.5}, "
                         "{players: ['X', 'O'], zero_sum: true}).text")
    assert text == "0"
