"""Issue 54 #5, the watch view's own defects: the tree follows the story (a node's bound and window as
its children so far set them), values stay inside their shapes, the step controls stay in place and end
at the last step, a preset with evaluations runs at a depth limit, the tree fits a phone, and no empty
boxes show before a run."""
from tests.browser.test_watch import go_to, lines, run, stat

A = 'svg.tree g.node[data-path="[]"]'


def test_a_node_shows_its_bound_and_window_as_its_children_set_them(page):
    """Figure 5.2: after B = 3 (step 5) the story says "A ≥ 3 so far": A shows ≥3 and α = 3 (it stayed
    blank, with the window it was entered with, until the last step)."""
    run(page, "figure-5-2", "alphabeta-textbook")
    go_to(page, 5)
    assert "A ≥ 3 so far." in lines(page, 5)
    assert page.locator(f"{A} .node-value").text_content() == "≥3"
    assert page.locator(f"{A} .alpha-beta").text_content() == "α 3 β +∞"
    go_to(page, 4)
    assert page.locator(f"{A} .node-value").text_content() == ""


def test_a_long_bound_stays_inside_its_shape(page):
    """Star1's "≤2.8" (a2, a chance node) and "≤2" (C, a MIN triangle) spilled out of their shapes."""
    for preset, algorithm, path in (("star1", "expectimax", '["a2"]'), ("figure-5-2", "alphabeta-textbook", '["C"]')):
        run(page, preset, algorithm)
        page.click("#last")
        node = page.locator(f'svg.tree g.node[data-path=\'{path}\']')
        text, shape = node.locator(".node-value").bounding_box(), node.locator("polygon, circle").bounding_box()
        assert node.locator(".node-value").text_content().startswith("≤")
        assert shape["x"] - 0.5 <= text["x"] and text["x"] + text["width"] <= shape["x"] + shape["width"] + 0.5
        assert shape["y"] - 0.5 <= text["y"] and text["y"] + text["height"] <= shape["y"] + shape["height"] + 0.5


def test_the_step_controls_stay_in_place_and_stop_at_the_last_step(page):
    run(page, "figure-5-2", "alphabeta-textbook")
    assert page.locator("#back").is_disabled() and page.locator("#first").is_disabled()
    places = set()
    for _ in range(11):
        places.add(page.locator("#forward").bounding_box()["x"])
        page.click("#forward")
    places.add(page.locator("#forward").bounding_box()["x"])
    assert len(places) == 1, places
    assert page.locator("#forward").is_disabled() and page.locator("#last").is_disabled()
    assert not page.locator("#back").is_disabled()


def test_the_preset_with_evaluations_runs_at_depth_1(page):
    """Depth 1 on figure 5.2 failed ("see: state.root.children[0].eval"): the evaluation preset picks C,
    rated 6, where the whole search finds B."""
    page.click("#tab-watch")
    page.select_option("#preset", "figure-5-2-eval")
    page.fill("#watch-depth", "1")
    page.click("#run")
    page.wait_for_function("() => document.querySelector('#step').textContent.startsWith('step 0 of')")
    page.click("#last")
    assert stat(page, "best move") == "C" and stat(page, "value") == "6"
    assert page.locator("#watch-error").is_hidden()


def test_no_empty_boxes_before_a_run_and_the_tree_fits_a_phone(page):
    page.click("#tab-watch")
    assert page.locator("#watch-stats").is_hidden() and page.locator("#narration").is_hidden()
    page.set_viewport_size({"width": 390, "height": 800})
    run(page, "figure-5-2", "alphabeta-textbook")
    area = page.locator("#tree").bounding_box()
    for node in page.locator("svg.tree g.node").all():
        box = node.bounding_box()
        assert area["x"] <= box["x"] and box["x"] + box["width"] <= area["x"] + area["width"], box
