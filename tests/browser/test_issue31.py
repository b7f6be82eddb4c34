"""Issue 31's defects of the Play panel, each checked in a real browser."""
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
