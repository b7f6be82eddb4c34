"""Issue 31 #8, the watch view: nothing given away at step 0, pruning shown at the step where it happens
with a narrated reason (AIMA figure 5.2's cut below C, exactly), max^n's vectors, a Star1 tree that the
server's trace and node counts show pruned, and the steps played at an adjustable delay. The narration is
read from the trace the server returned."""
import json

import requests

from tests.browser.test_play import WATCHED_PRUNED

AIMA_CUT = "C ≤ 2 ≤ α = 3, so its other children are pruned"
# Star1 on the preset "star1" (tests/engine/test_expectimax.py computes it by hand): a2's first MIN node
# is searched in (1.875, 10) and cut by its leaf 1; then a2 is at most .8 * 1 + .2 * 10 = 2.8 <= 3.5.
STAR1_PRUNED = {'["a2",0,1]', '["a2",1]', '["a2",1,0]', '["a2",1,1]'}
STAR1_MIN_CUT = "a2→0 ≤ 1 ≤ α = 1.875, so its other children are pruned"
STAR1_CHANCE_CUT = "a2 ≤ 0.8 × ≤1 + 0.2 × 10 = 2.8 ≤ α = 3.5, so its other children are pruned"


def run(page, preset: str, algorithm: str) -> int:
    """Run the search on a preset; the view waits at step 0. The number of steps (trace entries)."""
    page.click("#tab-watch")
    page.select_option("#preset", preset)
    page.select_option("#watch-algorithm", algorithm)
    page.click("#run")
    page.wait_for_function("() => document.querySelector('#step').textContent.startsWith('step 0 of')")
    return int(page.locator("#step").text_content().split()[-1])


def go_to(page, step: int) -> None:
    if not page.locator("#first").is_disabled():  # disabled at step 0
        page.click("#first")
    for _ in range(step):
        page.click("#forward")
    assert page.locator("#step").text_content().startswith(f"step {step} of")


def paths(page, selector: str) -> set:
    return {g.get_attribute("data-path") for g in page.locator(selector).all()}


def stat(page, name: str) -> str:
    return page.locator(f'#watch-stats [data-stat="{name}"]').text_content()


def lines(page, step: int | None = None) -> list:
    selector = "#narration li" if step is None else f'#narration li[data-step="{step}"]'
    return [li.text_content() for li in page.locator(selector).all()]


def test_step_0_gives_nothing_away(page):
    """Run used to land on the last step: at step 0 the pruned leaves were greyed already, and the value
    and best move were shown."""
    assert run(page, "figure-5-2", "alphabeta-textbook") == 11
    assert page.locator("svg.tree g.pruned").count() == 0
    assert page.locator("svg.tree g.visited").count() == 0 and page.locator("svg.tree .chosen").count() == 0
    assert page.locator("svg.tree g.node[data-value]").count() == 0
    assert page.locator("svg.tree g.unseen").count() == 13
    shown = page.locator("#watch-stats dt").all_text_contents()
    assert "value" not in shown and "best move" not in shown and "chosen line" not in shown, shown
    assert len(lines(page)) == 1 and "Nothing is visited yet" in lines(page, 0)[0]
    page.click("#last")
    assert stat(page, "value") == "3" and stat(page, "best move") == "B"


def test_figure_5_2_alpha_beta_narrates_the_cut_below_c_at_the_step_it_happens(page):
    """AIMA figure 5.5: after B = 3, MAX's alpha is 3; C's first leaf is 2, so C <= 2 <= alpha and C's
    other leaves are never looked at. That is step 7 of the trace (A, B, 3, 12, 8, C, 2)."""
    run(page, "figure-5-2", "alphabeta-textbook")
    go_to(page, 6)
    assert page.locator("svg.tree g.pruned").count() == 0
    assert not [line for line in lines(page) if "pruned" in line], lines(page)
    assert "Visit C (MIN) with α = 3, β = +∞." in lines(page, 6)
    page.click("#forward")
    assert paths(page, "svg.tree g.pruned") == WATCHED_PRUNED
    assert lines(page, 7) == ["C→0 is a leaf worth 2.",
                              AIMA_CUT + ": MAX can already get 3 elsewhere."]
    assert AIMA_CUT in page.locator("#narration-now").text_content()
    c = page.locator('svg.tree g.node[data-path="[\\"C\\"]"]')
    assert (c.get_attribute("data-value"), c.get_attribute("data-bound")) == ("2", "upper")
    assert c.locator(".node-value").text_content() == "≤2"
    assert page.locator('svg.tree g.node[data-path="[]"]').get_attribute("data-value") is None
    page.click("#last")
    assert lines(page, 3) == ["B→0 is a leaf worth 3.", "B ≤ 3 so far."]  # AIMA figure 5.5 (a)
    assert lines(page, 4) == ["B→1 is a leaf worth 12."]  # (b): B is still at most 3
    assert lines(page, 5) == ["B→2 is a leaf worth 8.", "B = min(3, 12, 8) = 3.", "A ≥ 3 so far."]  # (c)
    assert lines(page, 10) == ["D→1 is a leaf worth 5.", "D ≤ 5 so far."]
    assert lines(page, 11) == ["D→2 is a leaf worth 2.", "D = min(14, 5, 2) = 2.", "A = max(3, ≤2, 2) = 3.",
                               "The search is over: A = 3, and the best move is B."]
    assert [line for line in lines(page) if "pruned" in line] == [AIMA_CUT + ": MAX can already get 3 elsewhere."]
    assert paths(page, "svg.tree g.pruned") == WATCHED_PRUNED
    assert page.locator("svg.tree g.node.chosen").count() == 3  # A, B and B's 3


def test_minimax_narrates_every_value_and_prunes_nothing(page):
    assert run(page, "figure-5-2", "minimax") == 13
    page.click("#last")
    assert page.locator("svg.tree g.pruned").count() == 0
    assert "C = min(2, 4, 6) = 2." in lines(page) and "A = max(3, 2, 2) = 3." in lines(page)
    assert "Visit C (MIN)." in lines(page)  # no window: minimax has none
    assert stat(page, "nodes with alpha-beta (textbook)") == "11"


def test_max_n_inner_nodes_show_the_whole_vector(page):
    """AIMA figure 5.4: each inner node is worth the vector its mover prefers, not one number."""
    assert run(page, "three-players", "maxn") == 15
    page.click("#last")
    node = lambda path: page.locator(f"svg.tree g.node[data-path='{json.dumps(path, separators=(',', ':'))}']")
    expected = {"[]": [1, 2, 6], '["B1"]': [1, 2, 6], '["B2"]': [1, 5, 2], '["B1","C1"]': [1, 2, 6],
                '["B1","C2"]': [6, 1, 2], '["B2","C3"]': [1, 5, 2], '["B2","C4"]': [5, 4, 5]}
    for path, vector in expected.items():
        g = page.locator(f"svg.tree g.node[data-path='{path}']")
        assert json.loads(g.get_attribute("data-value")) == vector, path
        assert g.locator(".node-value").text_content() == "(" + ",".join(map(str, vector)) + ")", path
        assert g.locator(".node-value").evaluate("t => t.getBBox().width") < 3.6 * 15, path  # inside its box
    assert node([]).get_attribute("data-bound") == "exact"
    assert ("C1 = (1,2,6): of (1,2,6) and (4,2,3), player 2 takes the child best for itself (its entry 6)."
            in lines(page))
    assert lines(page, 15)[-2:] == [
        "A = (1,2,6): of (1,2,6) and (1,5,2), player 0 takes the child best for itself (its entry 1; the first of equals).",
        "The search is over: A = (1,2,6), and the best move is B1."]
    assert stat(page, "values") == "1, 2, 6"


def test_the_star1_preset_prunes_and_says_why(page, server):
    """The old chance preset searched 15 nodes with and without Star1. This tree's utilities are bounded
    (1..10), and Star1 provably cuts a2: the server's trace and node counts show 11 nodes against 15."""
    request = {"game": "tree", "algorithm": {"name": "expectimax"}, "trace": True}
    assert run(page, "star1", "expectimax") == 11
    state = page.evaluate("() => JSON.parse(document.querySelector('#tree-text').value)")
    star1 = requests.post(f"{server}/v1/search", json=dict(request, state=state), timeout=20).json()
    plain = requests.post(f"{server}/v1/search", timeout=20, json=dict(
        request, state=state, algorithm={"name": "expectimax", "pruning": False})).json()
    assert (star1["stats"]["nodes"], plain["stats"]["nodes"]) == (11, 15) and star1["value"] == plain["value"] == 3.5
    assert len(star1["trace"]) == 11 and star1["trace"][0]["bounds"] == [-10, 10]
    go_to(page, 9)  # a2 visited, nothing cut yet
    assert page.locator("svg.tree g.pruned").count() == 0
    page.click("#forward")
    page.click("#forward")
    assert paths(page, "svg.tree g.pruned") == STAR1_PRUNED
    assert [line for line in lines(page, 11) if "pruned" in line] == [
        STAR1_MIN_CUT + ": α = 1.875 is the Star1 window from a2 (below it, a2 stays at most its α = 3.5).",
        STAR1_CHANCE_CUT + ": the unseen outcomes (p = 0.2) are worth at most 10."]
    assert "a1 = 0.5 × 3 + 0.5 × 4 = 3.5." in lines(page)
    assert stat(page, "visited nodes") == "11" and stat(page, "nodes with expectimax without pruning") == "15"
    assert stat(page, "value") == "3.5" and stat(page, "best move") == "a1"


def test_the_old_chance_preset_is_honest_that_star1_cuts_nothing(page):
    assert run(page, "chance", "expectimax") == 15
    page.click("#last")
    assert page.locator("svg.tree g.pruned").count() == 0 and not [line for line in lines(page) if "pruned" in line]
    assert stat(page, "nodes with expectimax without pruning") == "15"


def test_play_steps_through_at_the_chosen_delay_and_pauses(page):
    page.click("#tab-watch")
    assert page.locator("#autoplay").is_disabled() and page.locator("#forward").is_disabled()  # no run yet
    run(page, "figure-5-2", "alphabeta-textbook")
    assert page.locator("#autoplay").is_enabled() and page.locator("#forward").is_enabled()
    page.fill("#delay", "100")  # a range input: Playwright sets its value and fires input
    assert page.locator("#delay-text").text_content() == "100 ms"
    page.click("#autoplay")
    assert page.locator("#autoplay").get_attribute("aria-pressed") == "true"
    page.wait_for_function("() => document.querySelector('#step').textContent.startsWith('step 11 of 11')")
    assert page.locator("#autoplay").text_content() == "Play"  # it stops at the end
    assert stat(page, "best move") == "B"
    page.fill("#delay", "3000")
    page.click("#autoplay")  # from the end, it starts again from the beginning
    assert page.locator("#step").text_content().startswith("step 0 of 11")
    page.click("#autoplay")  # pause before the first step
    page.wait_for_timeout(400)
    assert page.locator("#step").text_content().startswith("step 0 of 11")
    page.click("#forward")  # a step by hand
    assert page.locator("#step").text_content().startswith("step 1 of 11")


EVALUATED = {"root": {"id": "A", "type": "max", "eval": 0, "children": [
    {"id": "B", "type": "min", "eval": 5, "children": [{"value": 3}, {"value": 12}]},
    {"id": "C", "type": "min", "eval": 4, "children": [{"value": 2}, {"value": 9}]}]}}


def test_a_depth_limit_is_told_and_what_lies_beyond_it_is_not_called_pruned(page):
    page.click("#tab-watch")
    page.select_option("#preset", "own")
    page.fill("#tree-text", json.dumps(EVALUATED))
    page.select_option("#watch-algorithm", "alphabeta-textbook")
    page.fill("#watch-depth", "1")
    page.click("#run")
    page.wait_for_function("() => document.querySelector('#step').textContent === 'step 0 of 3'")
    assert page.locator("svg.tree g.beyond").count() == 0
    page.click("#last")
    assert "B is at the depth limit: its evaluation, 5, stands for its subtree." in lines(page, 2)
    assert "A = max(5, 4) = 5." in lines(page, 3)
    assert paths(page, "svg.tree g.beyond") == {'["B",0]', '["B",1]', '["C",0]', '["C",1]'}
    assert page.locator("svg.tree g.pruned").count() == 0 and not [line for line in lines(page) if "pruned" in line]


def test_expectimax_on_a_tree_without_chance_nodes_tells_min_as_equally_likely_moves(page):
    """API.md: expectimax's default opponent in a deterministic game is uniform chance."""
    run(page, "figure-5-2", "expectimax-full")
    page.click("#last")
    assert "Visit B (chance: MIN's moves equally likely)." in lines(page)
    assert "B = 0.333 × 3 + 0.333 × 12 + 0.333 × 8 = 7.667." in lines(page)
    assert stat(page, "value") == "7.667" and stat(page, "best move") == "B"


def test_enhanced_alpha_beta_tells_the_same_cut_in_its_null_window(page):
    """PVS searches C with the null window (3, 3 + ulp): the cut and its reason are the textbook's."""
    assert run(page, "figure-5-2", "alphabeta-enhanced") == 11
    go_to(page, 7)
    assert paths(page, "svg.tree g.pruned") == WATCHED_PRUNED
    assert lines(page, 7)[-1] == AIMA_CUT + ": MAX can already get 3 elsewhere."


def test_stepping_back_and_forth_keeps_the_story_in_order(page):
    run(page, "figure-5-2", "alphabeta-textbook")
    page.click("#last")
    full = lines(page)
    go_to(page, 7)  # back to the start, then forward one step at a time
    assert lines(page) == full[:len(lines(page))] and lines(page)[-1].startswith(AIMA_CUT)
    page.click("#back")
    assert not [line for line in lines(page) if "pruned" in line] and page.locator("svg.tree g.pruned").count() == 0
    assert [li.get_attribute("data-step") for li in page.locator("#narration li.now").all()] == ["6"]
    page.click("#last")
    assert lines(page) == full


def test_expectimax_below_a_min_root_takes_max_s_moves_as_chance(page):
    tree = {"root": {"id": "A", "type": "min", "children": [
        {"id": "B", "type": "max", "children": [{"value": 3}, {"value": 12}]},
        {"id": "C", "type": "max", "children": [{"value": 14}, {"value": 2}]}]}}
    page.click("#tab-watch")
    page.select_option("#preset", "own")
    page.fill("#tree-text", json.dumps(tree))
    page.select_option("#watch-algorithm", "expectimax-full")
    page.click("#run")
    page.wait_for_function("() => document.querySelector('#step').textContent === 'step 0 of 7'")
    page.click("#last")
    assert "Visit B (chance: MAX's moves equally likely)." in lines(page)
    assert "B = 0.5 × 3 + 0.5 × 12 = 7.5." in lines(page) and "A = min(7.5, 8) = 7.5." in lines(page)


def test_the_watch_view_fits_a_phone(page):
    """390 px: the controls wrap, the story goes below the tree, and only the tree scrolls sideways."""
    page.set_viewport_size({"width": 390, "height": 844})
    run(page, "figure-5-2", "alphabeta-textbook")
    go_to(page, 7)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    tree, story = page.locator("#tree").bounding_box(), page.locator("#narration").bounding_box()
    assert story["y"] >= tree["y"] + tree["height"] - 1 and story["x"] + story["width"] <= 390
    assert page.locator("#autoplay").bounding_box()["x"] + page.locator("#autoplay").bounding_box()["width"] <= 390
    page.click("#last")  # D's last leaf, at the far right of the tree: the tree scrolls to it
    tree, current = page.locator("#tree").bounding_box(), page.locator("svg.tree g.current").bounding_box()
    assert tree["x"] <= current["x"] and current["x"] + current["width"] <= tree["x"] + tree["width"]


def test_iterative_deepening_is_told_pass_by_pass(page):
    """Enhanced alpha-beta on a tree with evals deepens: the root is visited once per pass, the first
    pass's nodes are at its depth limit (not cut off, not pruned), and only the last pass ends the story."""
    page.click("#tab-watch")
    page.select_option("#preset", "figure-5-2")
    tree = json.loads(page.locator("#tree-text").input_value())
    for node in [tree["root"], *tree["root"]["children"]]:
        node["eval"] = 0
    page.select_option("#preset", "own")
    page.fill("#tree-text", json.dumps(tree))
    page.select_option("#watch-algorithm", "alphabeta-enhanced")
    page.click("#run")
    page.wait_for_function("() => document.querySelector('#step').textContent === 'step 0 of 15'")
    go_to(page, 4)
    assert lines(page, 4)[1:] == ["D is at the depth limit: its evaluation, 0, stands for its subtree.",
                                  "A = max(0, 0, 0) = 0."]
    assert paths(page, "svg.tree g.beyond") == {f'["{m}",{i}]' for m in "BCD" for i in range(3)}
    page.click("#forward")
    assert lines(page, 5)[0].startswith("Visit A again, for the next pass of iterative deepening")
    page.click("#last")
    assert page.locator("svg.tree g.beyond").count() == 0 and paths(page, "svg.tree g.pruned") == WATCHED_PRUNED
    assert [line for line in lines(page) if line.startswith("The search is over")] == [
        "The search is over: A = 3, and the best move is B."]
    assert not [line for line in lines(page) if "not in the trace" in line]
