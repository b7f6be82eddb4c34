"""Issue 54 #2: MCTS in the watch view. The tree grows iteration by iteration; each selection is told
with UCB's formula worked (the numbers below are worked by hand from figure 5.2's scaled leaves); the
edges carry N and UCB, the nodes U/N; the playout is dotted; the answer and its visits close the run."""
import math

import requests

from tests.browser.test_watch import go_to, lines, paths, run, stat

# Figure 5.2's leaves lie in [-14, 14] (the tree's range widened to its negation): a leaf v is the
# reward (v + 14) / 28 for MAX. Seed 1's first three iterations try B, C and D, whose playouts end at
# 3, 6 and 2: U = 17/28 = 0.61, 20/28 = 0.71, 16/28 = 0.57, each N = 1. Iteration 4, N(root) = 3:
# C's bound is 0.71 + 1.41 sqrt(ln 3 / 1) = 0.714 + 1.482 = 2.20, above B's 0.607 + 1.482 = 2.09.
FOURTH = "Selection: at the root (MAX to move, N = 3), UCB picks C: 0.71 + 1.41·sqrt(ln 3 / 1) = 2.20 beats B's 2.09."


def test_the_fourth_iteration_s_choice_is_told_with_its_formula(page):
    assert round(20 / 28 + math.sqrt(2) * math.sqrt(math.log(3)), 2) == 2.20  # the sum the sentence shows
    assert run(page, "figure-5-2", "mcts") == 12
    assert page.locator("svg.tree g.visited").count() == 0 and not page.locator("#watch-stats dt").filter(
        has_text="best move").count()
    go_to(page, 1)
    assert lines(page, 1)[1] == "Expansion: the root has an untried move, B: it joins the tree."
    assert paths(page, "svg.tree g.playout") == {'["B",0]'}  # the playout from B, dotted
    assert page.locator("svg.tree line.edge.playout").count() == 1
    go_to(page, 4)
    assert FOURTH in lines(page, 4)
    root = page.locator('svg.tree g.node[data-path="[]"]')
    assert root.get_attribute("data-visits") == "4"
    assert page.locator('svg.tree g.node[data-path="[\\"C\\"]"]').get_attribute("data-visits") == "2"
    assert page.locator("svg.tree .edge-ucb").filter(has_text="N 2 · UCB").count() == 1


def test_the_last_step_shows_the_choice_and_the_visits(page, server):
    run(page, "figure-5-2", "mcts")
    page.click("#last")
    answer = requests.post(f"{server}/v1/search", json={"game": "tree", "state": page.evaluate(
        "JSON.parse(document.querySelector('#tree-text').value)"), "algorithm": {"name": "mcts", "iterations": 12,
                                                                                 "seed": 1}}, timeout=30).json()
    assert stat(page, "best move") == answer["move"]
    visits = ", ".join(f"{m['move']} {m['visits']}" for m in answer["moves"])
    assert stat(page, "visits") == visits
    assert lines(page, 12)[-1] == f"MCTS chooses {answer['move']}, the most visited root move (visits: {visits})."
