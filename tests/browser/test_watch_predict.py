"""Issue 54 #5, CS188's exercise: predict which leaves alpha-beta will prune, on a preset or a random
tree, then let the step-through tell whether the prediction was right."""
import json

from tests.browser.test_watch import stat


def leaf(page, path: str):
    return page.locator(f"svg.tree g.node[data-path='{path}']")


def test_a_prediction_of_the_pruned_leaves_is_checked_at_the_last_step(page):
    page.click("#tab-watch")
    page.select_option("#preset", "figure-5-2")
    page.select_option("#watch-algorithm", "alphabeta-textbook")
    leaf(page, '["C",1]').click()
    leaf(page, '["C",2]').focus()
    page.keyboard.press("Enter")  # by keyboard too
    assert page.locator("svg.tree g.predicted").count() == 2
    page.click("#run")
    page.wait_for_function("() => document.querySelector('#step').textContent.startsWith('step 0 of')")
    page.click("#last")
    assert stat(page, "your prediction") == "right: exactly the 2 pruned leaves"
    assert page.locator('#watch-stats [data-stat="comparison"]').count() == 0  # alpha-beta has one
    page.click("#first")
    leaf(page, '["D",2]').click()  # D's last leaf is searched: a wrong guess
    page.click("#last")
    assert stat(page, "your prediction") == "2 of 2 pruned leaves found, 1 marked that were searched"


def test_a_random_tree_is_a_two_ply_tree_that_runs(page):
    page.click("#tab-watch")
    page.click("#random-tree")
    tree = json.loads(page.locator("#tree-text").input_value())
    assert [c["type"] for c in tree["root"]["children"]] == ["min"] * 3
    assert all(0 <= leaf["value"] <= 20 for c in tree["root"]["children"] for leaf in c["children"])
    assert page.locator("#preset").input_value() == "own"
    page.select_option("#watch-algorithm", "alphabeta-textbook")
    page.click("#run")
    page.wait_for_function("() => document.querySelector('#step').textContent.startsWith('step 0 of')")
    page.click("#last")
    assert stat(page, "best move") in ("B", "C", "D")
