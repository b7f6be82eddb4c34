"""Issue 54 #4, the lessons: each is a link that loads its tree and search, asks its question with the
answer folded away, and is done with the keyboard alone; each answer agrees with what the step-through
then shows (the server's search, not the lesson's text, decides)."""
import pytest

from tests.browser.test_play import WATCHED_PRUNED
from tests.browser.test_watch import STAR1_PRUNED, lines, paths, stat
from tests.browser.test_watch_mcts import FOURTH


def open_lesson(page, server, key: str) -> None:
    page.goto(f"{server}/play#watch/lesson/{key}")
    page.wait_for_selector("body[data-ready=true]")
    assert page.locator("#watch").is_visible() and page.locator("#lesson").input_value() == key
    assert page.locator("#lesson-question").is_visible() and page.locator("#lesson-answer-text").is_hidden()


def run_by_keyboard(page) -> None:
    """Run, then step to the end, with the keyboard alone."""
    page.focus("#run")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelector('#step').textContent.startsWith('step 0 of')")
    page.focus("#tree")
    page.keyboard.press("End")
    page.focus("#lesson-answer summary")
    page.keyboard.press("Enter")
    assert page.locator("#lesson-answer-text").is_visible()


@pytest.mark.parametrize("key", ["minimax", "alphabeta", "depth", "expectimax", "star1", "maxn", "mcts",
                                 "pacman-depth"])
def test_a_lesson_s_answer_is_what_the_search_shows(page, server, key):
    open_lesson(page, server, key)
    run_by_keyboard(page)
    answer = page.locator("#lesson-answer-text").text_content()
    if key in ("minimax", "depth", "expectimax", "pacman-depth"):
        assert f"by moving to {stat(page, 'best move')}" in answer or f"chooses {stat(page, 'best move')}" in answer
    if key == "alphabeta":
        assert paths(page, "svg.tree g.pruned") == WATCHED_PRUNED and stat(page, "visited nodes") == "11"
    if key == "star1":
        assert paths(page, "svg.tree g.pruned") == STAR1_PRUNED and "11 nodes instead of 15" in answer
    if key == "maxn":
        assert f"({stat(page, 'values')})" in answer
    if key == "pacman-depth":  # East's line after the ghost's reply, and South's, as the search backs them up
        assert lines(page)[-2] == "the root = max(8, ≤8, 18) = 18." and "(8 at best)" in answer and "worth 18" in answer
    if key == "mcts":
        assert FOURTH.split("picks ")[1].split(" beats")[0] in answer and FOURTH in lines(page, 4)


def test_choosing_a_lesson_writes_its_link(page):
    page.click("#tab-watch")
    page.select_option("#lesson", "alphabeta")
    assert page.evaluate("location.hash") == "#watch/lesson/alphabeta"
    assert "never look at" in page.locator("#lesson-question").text_content()
    assert page.locator("#preset").input_value() == "figure-5-2"
