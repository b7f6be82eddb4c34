"""Issue 29's analysis in the Play panel, in a real browser through the real server: the best moves of a
position (multi-PV), and the review of a game (played, or pasted as a PGN or a move list) with its graph,
its marks on the move list, and the better move of any ply."""
import json

import pytest
from engine.registry import GAME_MODULES
from tests.browser.conftest import SCREENSHOTS
from tests.browser.test_play import choose, hold_first, wait_for_human
from tests.browser.test_play_features import searches_sent

XX_OO = {"board": ["XX.", "OO.", "..."]}  # X to move: 2 wins at once, 5 draws, the others lose


def load(page, state) -> None:
    paste(page, json.dumps(state))


def paste(page, text: str) -> None:
    """Load the state `text` (JSON, or a chess FEN) as the position."""
    page.click("#paste summary")
    page.fill("#state-text", text)
    page.click("#load-state")


def wait_for_review(page) -> None:
    page.wait_for_function("() => document.querySelector('#review-status').textContent.startsWith('Review done')")


def test_best_moves_lists_the_multi_pv_lines_and_marks_one_on_the_board(page):
    choose(page, "tictactoe", "X", "alphabeta", 1000)
    load(page, XX_OO)
    wait_for_human(page, "X", ply=1)
    sent = searches_sent(page)
    page.fill("#best-count", "3")
    page.click("#best-moves")
    page.wait_for_selector("#best-lines li")
    assert sent[-1]["algorithm"] == {"name": "alphabeta", "multi_pv": 3}
    lines = page.locator("#best-lines li")
    assert lines.count() == 3
    assert [li.get_attribute("data-move") for li in lines.all()] == ["2", "5", "6"]  # win, draw, loss: best first
    values = [li.locator(".best-value").text_content() for li in lines.all()]
    assert values[0] == "win in 1" and values[1] == "draw" and values[2].startswith("loss"), values
    assert lines.nth(0).locator(".best-line").text_content() == "2"
    assert page.get_by_test_id("best-view").text_content() == "Values for X."
    assert page.locator("#move-list li").count() == 0 and page.locator("svg.board [data-piece]").count() == 4
    lines.nth(1).locator(".best-move").focus()  # a line's move, marked on the board from the keyboard
    page.keyboard.press("Enter")
    assert page.locator("#moves button.hinted").get_attribute("data-move") == "5"
    assert page.locator("svg.board g.hinted").get_attribute("data-cell") == "5"
    page.locator('svg.board g.playable[data-cell="2"]').click()  # another position: its lines are not these
    page.wait_for_function("() => document.querySelector('#status').textContent.includes('X wins')")
    assert page.locator("#best-lines li").count() == 0 and page.get_by_test_id("best-moves").is_disabled()


def test_best_moves_take_an_algorithm_that_ranks_several_moves_when_the_one_chosen_does_not(page):
    choose(page, "connect4", "X", "auto", 1000)
    wait_for_human(page, "X", ply=1)
    page.fill("#depth", "4")
    sent = searches_sent(page)
    page.click("#best-moves")
    page.wait_for_selector("#best-lines li")
    assert sent[-1]["algorithm"] == {"name": "alphabeta", "multi_pv": 3, "depth": 4}
    assert page.locator("#best-lines li").count() == 3


def test_review_a_game_played_marks_its_blunders_graphs_it_and_shows_the_better_move(page):
    """Issue 29's evidence: play a short game, review it, step to a blunder, screenshot."""
    choose(page, "tictactoe", "both (hot seat)", "alphabeta", 1000)
    wait_for_human(page, "X", ply=1)
    assert page.get_by_test_id("review").is_disabled()  # no move to review yet
    for ply, cell in enumerate([4, 1, 0, 8, 2], start=1):  # O's 1 and X's 2 throw a result away
        page.locator(f'svg.board g.playable[data-cell="{cell}"]').click()
        page.wait_for_function(f"() => /ply {ply + 1}|Game over/.test(document.querySelector('#status').textContent)")
    page.click("#review")
    wait_for_review(page)
    items = page.locator("#move-list li")
    classes = [li.get_attribute("data-class") for li in items.all()]
    assert classes == ["best", "blunder", "best", "best", "blunder"], classes
    assert items.nth(1).locator(".judgement").text_content() == "??"
    assert items.nth(1).get_by_role("button").get_attribute("aria-label") == "1: blunder"
    points = page.locator("#review-graph circle.point")
    assert points.count() == 5
    assert page.locator("#review-graph svg").get_attribute("data-scale") == "probability"
    assert all(p.get_attribute("role") == "button" for p in points.all())  # every point goes to its position
    marked = page.locator('#review-graph circle.point.blunder')
    assert [m.get_attribute("data-ply") for m in marked.all()] == ["2", "5"]
    summary = page.get_by_test_id("review-summary")
    assert summary.locator('tr[data-player="X"] [data-stat="blunder"]').text_content() == "1"
    assert summary.locator('tr[data-player="O"] [data-stat="blunder"]').text_content() == "1"
    marked.first.focus()  # to O's blunder, from the keyboard
    page.keyboard.press("Enter")
    wait_for_human(page, "X", ply=3)
    assert page.locator("#review-graph line.now").get_attribute("data-shown") == "2"
    detail = page.get_by_test_id("review-ply")
    assert detail.get_attribute("data-class") == "blunder" and "O played 1" in detail.text_content()
    assert page.get_by_test_id("review-best").text_content() == "0"  # the corner holds the draw
    assert page.get_by_test_id("review-previous-mistake").is_disabled()  # none before O's
    page.click("#review-next-mistake")  # to X's blunder, the last move
    wait_for_human(page, "O", ply=6)
    assert detail.get_attribute("data-class") == "blunder" and "X played 2" in detail.text_content()
    assert page.get_by_test_id("review-forward").is_disabled() and page.get_by_test_id("review-next-mistake").is_disabled()
    page.click("#review-back")  # O's 8, the best
    wait_for_human(page, "X", ply=5)
    assert detail.get_attribute("data-class") == "best" and "O played 8" in detail.text_content()
    page.click("#review-previous-mistake")
    wait_for_human(page, "X", ply=3)
    assert "O played 1" in detail.text_content()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "review_at_a_blunder.png"), full_page=True)
    page.click("#review-try")  # the position before it, the better move marked
    wait_for_human(page, "O", ply=2)
    assert page.locator("svg.board g.hinted").get_attribute("data-cell") == "0"
    page.locator('svg.board g.playable[data-cell="0"]').click()  # a new line: the old marks do not hold for it
    wait_for_human(page, "X", ply=3)
    assert page.locator("#move-list li").count() == 2
    assert page.locator("#move-list li").nth(0).get_attribute("data-class") == "best"
    assert page.locator("#move-list li").nth(1).get_attribute("data-class") is None
    page.click("#new-game")  # another game: the review was of this one
    wait_for_human(page, "X", ply=1)
    assert page.locator("#review-graph svg").count() == 0 and page.get_by_test_id("review-summary").is_hidden()
    assert page.get_by_test_id("review-status").text_content() == ""


def test_a_review_pauses_the_ai_against_ai(page):
    """The AI's searches would take the review's turns (one search per client here): the AI waits."""
    choose(page, "tictactoe", "nobody (AI against AI)", "alphabeta", 200)
    page.fill("#ai-delay", "1500")
    page.wait_for_function("() => document.querySelectorAll('#move-list li').length >= 2")
    page.wait_for_function("() => !document.querySelector('#review').disabled")  # between two moves
    page.click("#review")
    count = page.locator("#move-list li").count()
    wait_for_review(page)
    page.wait_for_timeout(2000)
    assert page.locator("#move-list li").count() == count
    assert page.locator("#play-error").is_hidden()


def test_a_review_can_be_stopped(page):
    choose(page, "connect4", "both (hot seat)", "alphabeta", 1000)
    wait_for_human(page, "X", ply=1)
    page.locator('svg.board g.playable[data-cell="3"]').click()
    wait_for_human(page, "O", ply=2)
    hold_first(page, "**/v1/review/stream")  # the review's answer never comes
    page.click("#review")
    page.wait_for_function("() => document.querySelector('#review').textContent === 'Stop the review'")
    assert page.get_by_test_id("review").is_enabled()
    page.click("#review")
    assert page.get_by_test_id("review-status").text_content() == "Review stopped: 0 moves judged."
    assert page.get_by_test_id("review").text_content() == "Review the game"
    assert page.locator("#play-error").is_hidden()


def test_review_a_pasted_pgn_plays_it_out_and_marks_the_blunder(page):
    choose(page, "chess", "both (hot seat)", "alphabeta", 1000)
    page.fill("#depth", "2")
    wait_for_human(page, "white", ply=1)
    sent = []
    page.on("request", lambda r: sent.append(json.loads(r.post_data)) if r.url.endswith("/v1/review/stream") else None)
    page.click("#review-paste summary")
    page.fill("#review-text", '[Event "Scholar"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0')
    page.click("#review-pasted")
    wait_for_review(page)
    assert sent[-1]["pgn"].startswith('[Event "Scholar"]') and "state" not in sent[-1]
    assert sent[-1]["algorithm"] == {"name": "alphabeta", "depth": 2}
    items = page.locator("#move-list li")
    assert [t.text_content() for t in page.locator("#move-list .move-text").all()][-1].startswith("Qxf7#")
    assert items.count() == 7 and "Game over" in page.locator("#status").text_content()
    assert items.nth(5).get_attribute("data-class") == "blunder"  # 3...Nf6?? lets the queen mate
    assert page.locator("#review-graph circle.point").count() == 7
    items.nth(5).get_by_role("button").click()
    wait_for_human(page, "white", ply=7)
    assert "black played Nf6" in page.get_by_test_id("review-ply").text_content()
    assert "→ mated (now lost by force)" in page.get_by_test_id("review-ply").text_content()  # not "lost 100.5"
    assert sent[-1]["time_limit_ms"] == 7 * 1000  # the page's time limit, for each of the PGN's 7 plies
    assert page.get_by_test_id("review-line").text_content().strip()  # the better line, in SAN


def test_a_reviewed_chess_game_fits_a_phone(browser, server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{server}/play")
    page.wait_for_selector("body[data-ready=true]")
    choose(page, "chess", "both (hot seat)", "alphabeta", 1000)
    page.fill("#depth", "1")
    page.click("#review-paste summary")
    page.fill("#review-text", "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0")
    page.click("#review-pasted")
    wait_for_review(page)
    assert page.get_by_test_id("best-moves").is_disabled()  # mate: no move to rank
    page.click("#review-back")
    page.click("#best-moves")
    page.wait_for_selector("#best-lines li")
    width = page.evaluate("() => document.documentElement.scrollWidth")
    graph = page.locator("#review-graph svg").bounding_box()
    context.close()
    assert width <= 390, width
    assert graph["x"] >= 0 and graph["x"] + graph["width"] <= 390, graph


def test_a_review_cut_short_by_its_time_says_so(page):
    choose(page, "chess", "both (hot seat)", "alphabeta", 1000)
    wait_for_human(page, "white", ply=1)
    # The review's time, 1 ms for the whole game: the server judges the plies it can, then stops.
    page.route("**/v1/review/stream", lambda route: route.continue_(
        post_data=json.dumps({**json.loads(route.request.post_data), "time_limit_ms": 1})))
    page.click("#review-paste summary")
    page.fill("#review-text", "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0")
    page.click("#review-pasted")
    wait_for_review(page)
    assert "The time ran out before the end" in page.get_by_test_id("review-status").text_content()
    judged = page.locator("#review-graph circle.point").count()
    assert judged < 7 and page.locator("#move-list li[data-class]").count() == judged


def test_review_a_pasted_move_list_names_an_illegal_move(page):
    choose(page, "connect4", "both (hot seat)", "alphabeta", 1000)
    page.fill("#depth", "4")
    wait_for_human(page, "X", ply=1)
    page.click("#review-paste summary")
    page.fill("#review-text", "3 3 9")
    page.click("#review-pasted")
    page.wait_for_selector("#play-error:not([hidden])")
    assert page.locator("#play-error").text_content().startswith("Move 3 (9)")
    page.fill("#review-text", "[3, 3, 0]")
    page.click("#review-pasted")
    wait_for_review(page)
    assert page.locator("#move-list li").count() == 3
    assert all(li.get_attribute("data-class") for li in page.locator("#move-list li").all())


@pytest.mark.parametrize("game", list(GAME_MODULES))
def test_every_game_of_the_playground_can_be_reviewed_and_its_best_moves_listed(page, game):
    """A few moves of AI against AI, then the review: a point on the graph for every decision (chance
    moves are not judged), and the move list marked; then the best moves of a position of the game."""
    choose(page, game, "nobody (AI against AI)", "auto", 100)
    page.fill("#ai-delay", "0")
    page.wait_for_function("() => document.querySelectorAll('#move-list li').length >= 4"
                           " || document.querySelector('#status').textContent.includes('Game over')")
    page.select_option("#side", "both (hot seat)")
    page.evaluate("() => document.querySelector('#stop').click()")  # a search running, if any (disabled: none)
    page.wait_for_function("() => !document.querySelector('#review').disabled")
    line = page.evaluate("() => JSON.parse(localStorage.getItem('tactician.play')).line")
    page.click("#review")
    wait_for_review(page)
    decisions = [entry for before, entry in zip(line, line[1:]) if before["info"]["to_move"] != "chance"]
    judged = page.locator("#review-graph circle.point").count()
    # Every decision is judged, unless the review's time ran out first (a loaded machine), as it then says.
    cut_short = "The time ran out before the end" in page.get_by_test_id("review-status").text_content()
    assert 0 < judged <= len(decisions) and (judged == len(decisions) or cut_short)
    assert page.locator("#move-list li[data-class]").count() == judged
    ply = next(i for i, entry in enumerate(line) if i and entry["info"]["to_move"] != "chance"
               and not entry["info"]["terminal"])
    page.locator("#move-list .move-text").nth(ply - 1).click()
    page.click("#best-moves")
    page.wait_for_selector("#best-lines li")
    assert page.locator("#best-lines li").count() == min(3, len(line[ply]["info"]["legal_moves"]))


def test_a_review_without_a_bound_of_its_own_searches_a_node_budget_and_judges_alike_twice(page):
    """Issue 50, item 12: a review whose searches only the time limit ended judged the same PGN differently
    each time; the page now gives each position a node budget where the algorithm sets no bound."""
    choose(page, "chess", "both (hot seat)", "alphabeta", 5000)
    wait_for_human(page, "white", ply=1)
    sent, judged = [], []
    page.on("request", lambda r: sent.append(json.loads(r.post_data)) if r.url.endswith("/v1/review/stream") else None)
    for _ in range(2):
        if not page.locator("#review-text").is_visible():   # the paste box stays open after a review
            page.click("#review-paste summary")
        page.fill("#review-text", "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0")
        page.click("#review-pasted")
        wait_for_review(page)
        judged.append([item.get_attribute("data-class") for item in page.locator("#move-list li").all()])
        page.click("#review-back")
    assert [body["algorithm"] for body in sent] == [{"name": "alphabeta", "nodes": 200_000}] * 2
    assert judged[0] == judged[1] and judged[0][5] == "blunder"
