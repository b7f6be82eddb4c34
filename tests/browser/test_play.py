"""The playground page in a real browser: play games by clicking, watch alpha-beta prune, see the API's
errors, call the API across origins."""
import json

import pytest
import requests

from tests.browser.conftest import SCREENSHOTS
from tests.service.server import gunicorn

WATCHED_PRUNED = {'["C",1]', '["C",2]'}  # figure 5.2: textbook alpha-beta never visits C's last two leaves


def choose(page, game, side, algorithm, time_limit_ms):
    page.evaluate("() => { const s = document.getElementById('settings'); if (s) s.open = true; }")  # folded on a phone
    page.select_option("#game", game)
    page.select_option("#side", side)
    page.select_option("#algorithm", algorithm)
    page.fill("#time-limit", str(time_limit_ms))
    page.click("#new-game")


def wait_for_human(page, side: str, ply: int | None = None) -> None:
    """``side`` to move (at ``ply``: a position just set up is ply 1)."""
    text = f"{side} to move" + ("" if ply is None else f" (ply {ply})")
    page.wait_for_function(f"() => document.querySelector('#status').textContent.startsWith('{text}')")


def hold_first(page, pattern: str) -> list:
    """The first request to ``pattern`` is held (its route appended to the list returned, to be continued
    by the test); later ones go through."""
    held = []
    page.route(pattern, lambda route: route.continue_() if held else held.append(route))
    return held


def settle(page) -> None:
    """Time for the page to send a request it was about to (a move, a search)."""
    page.evaluate("() => new Promise((done) => setTimeout(done, 300))")


def test_a_whole_game_of_tic_tac_toe_by_clicking(page, server):
    choose(page, "tictactoe", "X", "alphabeta", 300)
    status = page.locator("#status")
    pieces = page.locator("svg.board [data-piece]")
    for _ in range(5):  # X moves at most five times
        page.wait_for_function("() => /X to move|Game over/.test(document.querySelector('#status').textContent)")
        if "Game over" in status.text_content():
            break
        before = pieces.count()
        page.locator("svg.board g.playable").first.click()
        page.wait_for_function(f"() => document.querySelectorAll('svg.board [data-piece]').length > {before}")
    page.wait_for_function("() => document.querySelector('#status').textContent.includes('Game over')")
    final = json.loads(page.input_value("#state-text"))
    rules = requests.post(f"{server}/v1/games/tictactoe/legal-moves", json={"state": final}, timeout=10).json()
    assert rules["terminal"]
    winner = [p for p, u in rules["utilities"].items() if u > 0]
    expected = f"{winner[0]} wins" if winner else "a draw"
    assert expected in status.text_content()
    assert page.locator("svg.board [data-piece]").count() == 9 - "".join(final["board"]).count(".")


def test_a_connect_four_move_and_the_ai_s_reply_with_its_statistics(page):
    choose(page, "connect4", "X", "alphabeta", 500)
    page.locator('svg.board g.playable[data-cell="3"]').click()  # once the empty board is drawn: a column
    page.wait_for_function("() => document.querySelectorAll('svg.board [data-piece]').length === 2")
    assert page.locator("#status").text_content().startswith("X to move")
    assert page.locator("#stats").get_attribute("data-kind") == "result"
    nodes = int(page.locator('#stats [data-stat="nodes"]').text_content().replace(",", ""))
    assert nodes > 0
    assert page.locator('#stats [data-stat="depth completed"]').text_content() != "–"
    assert int(page.locator('#stats [data-stat="nodes/s"]').text_content().replace(",", "")) > 0
    assert page.locator("#bars rect.bar").count() == 7  # every root move's value
    # The AI's move is on the board, and a click on a column plays there.
    page.locator('svg.board g.playable[data-cell="3"]').click()
    page.wait_for_function("() => document.querySelectorAll('svg.board [data-piece]').length === 4")
    # A position pasted as JSON in the move-list form of the state, then played on.
    page.click("#paste summary")
    page.fill("#state-text", '{"moves": "4453"}')
    page.click("#load-state")
    wait_for_human(page, "X", ply=1)
    page.click('#moves button[data-move="0"]')
    page.wait_for_function("() => document.querySelectorAll('svg.board [data-piece]').length === 6")


def test_figure_5_2_textbook_alpha_beta_greys_out_the_pruned_leaves(page):
    page.click("#tab-watch")
    page.select_option("#preset", "figure-5-2")
    page.select_option("#watch-algorithm", "alphabeta-textbook")
    page.click("#run")
    page.wait_for_function("() => document.querySelector('#step').textContent.startsWith('step 0 of')")
    page.click("#last")  # a run starts at step 0 (issue 31): the result is shown at the last step
    page.wait_for_selector('#watch-stats [data-stat="visited nodes"]')
    stat = lambda name: page.locator(f'#watch-stats [data-stat="{name}"]').text_content()
    assert stat("visited nodes") == "11" and stat("value") == "3" and stat("best move") == "B"
    assert stat("nodes with minimax (no pruning)") == "13"
    pruned = page.locator("svg.tree g.pruned")
    assert {pruned.nth(i).get_attribute("data-path") for i in range(pruned.count())} == WATCHED_PRUNED
    assert float(pruned.first.evaluate("g => getComputedStyle(g).opacity")) < 0.5
    assert page.locator('svg.tree g.node[data-path="[]"]').get_attribute("data-value") == "3"
    # Step back to the start and forward again, with the keyboard.
    page.click("#back")
    assert page.locator("#step").text_content().startswith("step 10 of 11")
    page.focus("#tree")
    page.keyboard.press("Home")
    assert page.locator("svg.tree g.visited").count() == 0
    page.keyboard.press("ArrowRight")
    assert page.locator("svg.tree g.visited").count() == 1 and "visit root" in page.locator("#step").text_content()


def test_a_run_answered_after_the_tree_changed_is_not_drawn_over_it(page):
    """Watch: Run is disabled until its search answers (a second run at once would be the client's second
    search, refused 429), and a tree chosen meanwhile keeps its own drawing, not the old run's."""
    page.click("#tab-watch")
    page.select_option("#preset", "figure-5-2")
    page.select_option("#watch-algorithm", "minimax")
    held = hold_first(page, "**/v1/search")
    with page.expect_request("**/v1/search"):
        page.click("#run")
    assert page.locator("#run").is_disabled()
    page.select_option("#preset", "three-players")
    held[0].continue_()
    page.wait_for_function("() => !document.querySelector('#run').disabled")
    assert page.locator("#watch-stats [data-stat]").count() == 0 and page.locator("#watch-error").is_hidden()
    assert page.locator('svg.tree g.node[data-path="[]"]').get_attribute("data-value") is None


def test_a_bad_pasted_state_shows_the_api_s_error(page, server):
    choose(page, "tictactoe", "X", "alphabeta", 300)
    bad = {"board": ["XXX", "XXX", "XXX"]}
    page.click("#paste summary")
    page.fill("#state-text", json.dumps(bad))
    page.click("#load-state")
    error = page.locator("#play-error")
    error.wait_for(state="visible")
    problem = requests.post(f"{server}/v1/games/tictactoe/legal-moves", json={"state": bad}, timeout=10).json()
    assert problem["status"] == 422
    assert problem["detail"] in error.text_content()
    for field, messages in problem["errors"].items():
        assert f"{field}: {' '.join(messages)}" in error.text_content()
    assert page.locator("#status").text_content() == "X to move (ply 1)."  # the board shown, still playable


def test_no_move_is_played_on_the_old_board_while_a_new_position_is_checked(page):
    """Between "Load this state" and the rules' answer, the page still shows the old board: a click on it
    then played on the old position, and the one pasted was lost. The rules' answer is held here until
    the click has been tried."""
    choose(page, "tictactoe", "X", "alphabeta", 300)
    wait_for_human(page, "X", ply=1)
    applied = []
    page.on("request", lambda request: applied.append(request.url) if request.url.endswith("/apply") else None)
    held = hold_first(page, "**/v1/games/tictactoe/legal-moves")
    page.click("#paste summary")
    page.fill("#state-text", json.dumps({"board": ["X..", ".O.", "..."]}))
    with page.expect_request("**/v1/games/tictactoe/legal-moves"):
        page.click("#load-state")
    # The board shown takes no pointer; a click the browser would still deliver (or Enter) plays nothing.
    assert page.locator("#board").evaluate("area => getComputedStyle(area).pointerEvents") == "none"
    page.locator("svg.board g.playable").first.dispatch_event("click")
    settle(page)
    assert applied == [] and len(held) == 1
    assert page.locator("#status").text_content() == "Checking the position…"
    held[0].continue_()
    wait_for_human(page, "X", ply=1)
    assert json.loads(page.input_value("#state-text"))["board"] == ["X..", ".O.", "..."]
    assert applied == [] and page.locator("#move-list li").count() == 0


def test_a_state_typed_while_a_new_game_is_checked_is_not_overwritten_by_it(page):
    """The rules' answer to "New game" came after a state was pasted in the box, and drawing it replaced
    the pasted text: "Load this state" then loaded the new game instead."""
    choose(page, "tictactoe", "X", "alphabeta", 300)
    wait_for_human(page, "X", ply=1)
    held = hold_first(page, "**/v1/games/tictactoe/legal-moves")
    with page.expect_request("**/v1/games/tictactoe/legal-moves"):
        page.click("#new-game")
    pasted = json.dumps({"board": ["X..", ".O.", "..."]})
    page.click("#paste summary")
    page.fill("#state-text", pasted)
    held[0].continue_()
    wait_for_human(page, "X", ply=1)
    assert page.input_value("#state-text") == pasted
    page.click("#load-state")
    wait_for_human(page, "X", ply=1)
    assert json.loads(page.input_value("#state-text"))["board"] == ["X..", ".O.", "..."]
    assert page.locator("svg.board [data-piece]").count() == 2


def test_choosing_the_side_while_a_position_is_checked_lets_the_ai_play_that_position(page):
    """The side chosen (the AI now plays X) before the pasted position is answered: the AI searched the
    board still shown, and the pasted one was dropped. It now waits for the position, then plays on it."""
    choose(page, "tictactoe", "X", "alphabeta", 300)
    wait_for_human(page, "X", ply=1)
    held = hold_first(page, "**/v1/games/tictactoe/legal-moves")
    page.click("#paste summary")
    page.fill("#state-text", json.dumps({"board": ["XO.", ".X.", "O.."]}))
    with page.expect_request("**/v1/games/tictactoe/legal-moves"):
        page.click("#load-state")
    page.select_option("#side", "O")
    settle(page)
    held[0].continue_()
    page.wait_for_function("() => document.querySelectorAll('#move-list li').length >= 1")
    board = json.loads(page.input_value("#state-text"))["board"]
    assert [board[0][:2], board[1][1], board[2][0]] == ["XO", "X", "O"] and board[2][2] == "X"  # X wins at once


ENDLESS = {"game": "tictactoe", "state": {"board": ["." * 7] * 7, "k": 4}, "algorithm": {"name": "minimax"},
           "time_limit_ms": 10000}  # far from done in ten seconds


def test_a_busy_server_is_asked_again_when_its_retry_after_says(page, server):
    """The page's client (its address) already holds its one search (MAX_SEARCHES_PER_CLIENT): the AI's
    search is refused 429 with Retry-After. The page says so and asks again when told, until it is let in."""
    choose(page, "tictactoe", "X", "alphabeta", 300)
    wait_for_human(page, "X", ply=1)
    with requests.post(f"{server}/v1/search/stream", json=ENDLESS, stream=True, timeout=30) as holding:
        assert holding.status_code == 200  # the client's search is held
        page.click("#ai-move")
        page.wait_for_function("() => document.querySelector('#status').textContent.startsWith('The server is busy')")
        assert "asking again in 1 s" in page.locator("#status").text_content()
        page.wait_for_timeout(1500)  # asked again, and refused again
        assert page.locator("#move-list li").count() == 0
    # The stream closed: its search stops, and the page's next try is let in.
    page.wait_for_function("() => document.querySelectorAll('#move-list li').length >= 1")
    assert page.locator("#play-error").is_hidden()


CROSS_ORIGIN_SEARCH = """async (base) => {
    try {
        const response = await fetch(base + "/v1/search", {method: "POST",
            headers: {"Content-Type": "application/json"},
            body: JSON.stringify({game: "tictactoe", state: {board: ["XX.", "OO.", "..."]},
                                  algorithm: {name: "minimax"}})});
        return {status: response.status, body: await response.json()};
    } catch (error) {
        return {refused: String(error)};
    }
}"""


@pytest.fixture(scope="module")
def strict_server(tmp_path_factory):
    """A server that lets only one other origin's pages call it."""
    with gunicorn(tmp_path_factory.mktemp("strict"), WEB_CONCURRENCY=1,
                  CORS_ORIGINS="https://front.example") as (base, _):
        yield base


def test_another_origin_may_call_the_api_by_default_and_not_when_the_setting_excludes_it(page, server,
                                                                                          strict_server):
    """The page is loaded from localhost and calls 127.0.0.1: another origin, so the browser sends a
    preflight (a JSON POST) and shows the answer only if the server allows the origin."""
    console = []
    page.on("console", lambda message: console.append(message.text))
    page.goto(server.replace("127.0.0.1", "localhost") + "/play")
    page.wait_for_selector("body[data-ready=true]")
    allowed = page.evaluate(CROSS_ORIGIN_SEARCH, server)
    assert allowed["status"] == 200 and allowed["body"]["move"] == 2
    refused = page.evaluate(CROSS_ORIGIN_SEARCH, strict_server)
    assert "Failed to fetch" in refused["refused"]
    assert any("blocked by CORS policy" in text for text in console), console
    direct = requests.post(f"{strict_server}/v1/search", timeout=10, json={  # the server itself answers
        "game": "tictactoe", "state": {"board": ["XX.", "OO.", "..."]}, "algorithm": {"name": "minimax"}})
    assert direct.status_code == 200


def test_the_page_fits_a_phone(browser, server):
    context = browser.new_context(viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{server}/play")
    page.wait_for_selector("svg.board")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "phone.png"), full_page=True)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    context.close()
    assert width <= 375, width
