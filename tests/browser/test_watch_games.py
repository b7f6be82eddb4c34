"""Issue 54 #3, real positions beyond tic-tac-toe in the watch view: a Connect Four ending, a tiny Pacman
maze, a 2048 board near its end (expectimax) and an Othello ending, each searched on its game with a trace
and drawn as the tree the trace visited, its pruned moves beside it, every node with its board. What the
page shows is checked against the API: the trace and stats of the same search, and the rules route's
legal moves at every node the search expanded (the tree the page must draw). A tree past 40 nodes folds
into "+N" marks that unfold; the depth limit's effect on the choice is said in a sentence."""
import json

import pytest
import requests

from tests.browser.test_watch import go_to, lines, paths, run, stat

ALGORITHMS = {  # the watch view's searches (presets.js's WATCH_ALGORITHMS) that these presets run
    "alphabeta-textbook": {"name": "alphabeta", "move_ordering": False, "transposition_table": False},
    "expectimax": {"name": "expectimax"},
}
GAMES = {"connect4-ending": "connect4", "pacman-maze": "pacman", "2048-end": "2048", "othello-ending": "othello"}
BUDGET = 40  # watch.js's FOLD_BUDGET


def key(path) -> str:
    return json.dumps(path, separators=(",", ":"))


def position(page) -> tuple:
    """The page's position (its editor's JSON) and depth limit (None: none)."""
    depth = page.locator("#watch-depth").input_value()
    return json.loads(page.locator("#tree-text").input_value()), int(depth) if depth else None


def searched(server, game, state, algorithm, depth) -> dict:
    full = dict(ALGORITHMS[algorithm], **({"depth": depth} if depth else {}))
    answer = requests.post(f"{server}/v1/search", timeout=60,
                           json={"game": game, "state": state, "algorithm": full, "trace": True})
    assert answer.status_code == 200, answer.text
    return answer.json()


def rules(server, game, state, trace) -> dict:
    """The rules' answer at every node the tree must hold: each visited node and, beside each visited node
    with visited children, its other legal moves. Path key -> the answer (the root's: legal-moves')."""
    expanded = {key(e["path"][:-1]) for e in trace if e["path"]}
    answers = {key([]): requests.post(f"{server}/v1/games/{game}/legal-moves", json={"state": state}, timeout=30).json()}
    level = [[]]
    while level:
        level = [path + [move] for path in level if key(path) in expanded
                 for move in answers[key(path)]["legal_moves"]]
        for path in level:
            answers[key(path)] = requests.post(f"{server}/v1/games/{game}/apply", timeout=30,
                                               json={"state": state, "moves": path}).json()
    return answers


def tile_text(move) -> str:
    """A move as the page writes it (notation.js: 2048's new tile as "2 at b3")."""
    if isinstance(move, dict):
        return f'{move["tile"]} at {chr(97 + move["cell"][1])}{move["cell"][0] + 1}'
    return str(move)


def number(x) -> str:
    """A value as the page writes it (svg.js's formatNumber: integers as they are, else 3 decimals)."""
    return str(int(x)) if float(x).is_integer() else f"{round(x, 3):g}"


def rerun(page) -> None:
    """Run the search again and wait for its answer (Run is disabled from the click until then)."""
    page.click("#run")
    page.wait_for_function("() => !document.querySelector('#run').disabled"
                           " && document.querySelector('#step').textContent.startsWith('step 0 of')")


def drawn_size(page) -> int:
    """The nodes of the tree drawn, with those folded into "+N" marks."""
    hidden = sum(int(g.get_attribute("data-hidden")) for g in page.locator("svg.tree g.fold").all())
    return page.locator("svg.tree g.node").count() + hidden


@pytest.mark.parametrize("preset, algorithm", [("connect4-ending", "alphabeta-textbook"),
                                               ("pacman-maze", "alphabeta-textbook"),
                                               ("pacman-maze", "expectimax"),  # the ghost as chance
                                               ("2048-end", "expectimax"),
                                               ("othello-ending", "alphabeta-textbook")])
def test_a_game_position_is_drawn_and_told_as_the_api_searched_it(page, server, preset, algorithm):
    steps = run(page, preset, algorithm)
    game = GAMES[preset]
    state, depth = position(page)
    answer = searched(server, game, state, algorithm, depth)
    trace = answer["trace"]
    assert steps == len(trace) == answer["stats"]["nodes"] > 1
    answers = rules(server, game, state, trace)
    assert drawn_size(page) == len(answers)  # the visited nodes and their pruned siblings, no more
    assert page.locator("svg.tree svg.mini-position").count() == page.locator("svg.tree g.node").count()
    # step 0 gives nothing away: no value on any node (a leaf's evaluation shows once it is visited)
    assert not "".join(page.locator("svg.tree g.node .node-value").all_text_contents())
    go_to(page, 2)  # the second visit, named by its move
    second = trace[1]["path"]
    assert lines(page, 2)[0].startswith(f"Visit the root→{tile_text(second[0])} (")
    page.click("#last")
    assert stat(page, "visited nodes") == str(answer["stats"]["nodes"])
    assert stat(page, "best move") == tile_text(answer["move"]) and stat(page, "cutoffs") == str(answer["stats"]["cutoffs"])
    told = lines(page)
    assert told[-1] == f"The search is over: the root = {number(answer['value'])}, and the best move is {tile_text(answer['move'])}."
    expanded = {key(e["path"][:-1]) for e in trace if e["path"]}
    limits = [e for e in trace if key(e["path"]) not in expanded and not answers[key(e["path"])]["terminal"]]
    assert sum("is at the depth limit: the evaluation rates it" in line for line in told) == len(limits)
    assert sum("so its other children are pruned" in line for line in told) == answer["stats"]["cutoffs"]
    visited = {key(e["path"]) for e in trace}
    drawn = paths(page, "svg.tree g.node")
    # at the end every drawn node the search did not visit is pruned, and only those
    assert paths(page, "svg.tree g.pruned") == drawn - visited


def test_2048_s_chance_nodes_weigh_the_new_tiles_by_their_probabilities(page, server):
    run(page, "2048-end", "expectimax")
    state, depth = position(page)
    answer = searched(server, "2048", state, "expectimax", depth)
    page.click("#last")
    answers = rules(server, "2048", state, answer["trace"])
    slides = answers[key([])]["legal_moves"]
    assert page.locator("svg.tree g.node.chance").count() == len(slides)  # each slide, then a new tile
    slide = slides[0]
    tiles = answers[key([slide])]
    weighed = [line for line in lines(page) if line.startswith(f"the root→{slide} = ")]
    assert len(weighed) == 1
    assert [float(w.split(" × ")[0].split()[-1]) for w in weighed[0].split(" + ")] == tiles["probabilities"]


def test_a_large_tree_folds_and_unfolds_by_click_and_by_key(page, server):
    steps = run(page, "connect4-ending", "alphabeta-textbook")  # searched to the end: 46 visits
    state, depth = position(page)
    answer = searched(server, "connect4", state, "alphabeta-textbook", depth)
    assert steps == len(answer["trace"])
    size = len(rules(server, "connect4", state, answer["trace"]))
    assert size > BUDGET  # a tree too large to show whole
    folds = page.locator("svg.tree g.fold")
    assert folds.count() and page.locator("svg.tree g.node").count() + folds.count() <= BUDGET
    assert drawn_size(page) == size
    # a step inside a folded subtree: its "+N" is marked, and the step is still told
    drawn = paths(page, "svg.tree g.node")
    deep = next(i for i, e in enumerate(answer["trace"]) if key(e["path"]) not in drawn)
    go_to(page, deep + 1)
    path = answer["trace"][deep]["path"]
    holder = page.locator("svg.tree g.fold.current")
    assert holder.count() == 1 and key(path).startswith(holder.get_attribute("data-path")[:-1])
    assert "→".join(str(m) for m in path) in lines(page, deep + 1)[0]
    # a click unfolds one level: the folded node's children are drawn, the tree's size is the same
    target = holder.get_attribute("data-path")
    holder.click()
    children = {key(json.loads(target) + [m]) for m in rules(server, "connect4", state, answer["trace"])[target]["legal_moves"]}
    assert children <= paths(page, "svg.tree g.node")
    assert drawn_size(page) == size
    assert page.locator("#step").text_content().startswith(f"step {deep + 1} of")  # the step shown is kept
    # the keyboard: a "+N" takes the focus and Enter unfolds it
    before = page.locator("svg.tree g.node").count()
    mark = page.locator("svg.tree g.fold").first
    below = " → ".join(str(m) for m in json.loads(mark.get_attribute("data-path")))
    assert mark.get_attribute("aria-label") == f"unfold the {mark.get_attribute('data-hidden')} nodes below {below}"
    mark.focus()
    page.keyboard.press("Enter")
    assert page.locator("svg.tree g.node").count() > before and drawn_size(page) == size
    # and a node's subtree folds again, by click or by key, into a "+N" that takes the focus
    for fold in (lambda node: node.click(), lambda node: (node.focus(), page.keyboard.press("Enter"))):
        node = page.locator('svg.tree g.node.clickable').first
        target = node.get_attribute("data-path")
        fold(node)
        mark = page.locator(f"svg.tree g.fold[data-path='{target}']")
        assert mark.count() == 1 and mark.evaluate("m => m === document.activeElement")
        assert not [p for p in paths(page, "svg.tree g.node") if p.startswith(target[:-1] + ",")]  # none below it
        assert drawn_size(page) == size


@pytest.mark.parametrize("preset", ["pacman-maze", "othello-ending"])
def test_the_depth_limit_changes_the_choice_and_the_page_says_so(page, server, preset):
    game = GAMES[preset]
    run(page, preset, "alphabeta-textbook")
    state, _ = position(page)
    shallow, deep = (searched(server, game, state, "alphabeta-textbook", d) for d in (1, 3))
    assert shallow["move"] != deep["move"]  # the preset's point
    for depth in ("1", "3"):
        page.fill("#watch-depth", depth)
        rerun(page)
        assert page.locator("#depth-note").text_content() == ""  # the choice is not given away before the end
        page.click("#last")
    assert page.locator("#depth-note").text_content() == (
        f"At depth 1 the search chooses {shallow['move']}, which the evaluation at its depth limit rates "
        f"{number(shallow['value'])}; at depth 3 it chooses {deep['move']}, worth {number(deep['value'])}: "
        "looking further changed the choice.")
    assert stat(page, "best move") == deep["move"]


@pytest.mark.parametrize("width, height", [(1280, 800), (390, 844)])
def test_game_trees_fit_desktop_and_phone_and_step_by_keyboard(page, width, height):
    page.set_viewport_size({"width": width, "height": height})
    run(page, "connect4-ending", "alphabeta-textbook")
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # only the tree scrolls sideways
    tree = page.locator("#tree")
    assert tree.bounding_box()["width"] <= width
    tree.focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.locator("#step").text_content().startswith("step 2 of")
    current = page.locator("svg.tree g.current")
    assert current.count() == 1
    # the boards keep their size (the tree scrolls sideways instead of shrinking), and the visited node is
    # scrolled into the tree's view
    board = page.locator("svg.tree svg.mini-position").first.bounding_box()
    assert board["width"] >= 40
    box, mark = tree.bounding_box(), current.bounding_box()
    assert box["x"] <= mark["x"] and mark["x"] + mark["width"] <= box["x"] + box["width"]
    page.keyboard.press("End")
    assert page.locator("#forward").is_disabled() and lines(page)[-1].startswith("The search is over")


def test_a_search_too_large_to_draw_is_refused_with_the_reason(page, server):
    """Minimax on the Connect Four ending visits 1,849 nodes: the tree would need a rules request for each
    and could not be read, so the page says so instead of drawing it."""
    page.click("#tab-watch")
    page.select_option("#preset", "connect4-ending")
    state, depth = position(page)
    answer = requests.post(f"{server}/v1/search", timeout=60, json={
        "game": "connect4", "state": state, "algorithm": {"name": "minimax"}}).json()
    assert answer["stats"]["nodes"] > 300  # gametree.js's MAX_VISITS
    page.select_option("#watch-algorithm", "minimax")
    page.click("#run")
    error = page.locator("#watch-error")
    error.wait_for(state="visible")
    assert error.text_content() == (f"The search visited {answer['stats']['nodes']} nodes, more than this view "
                                     "draws (300): lower the depth.")
    assert page.locator("#step").text_content() == "" and page.locator("#forward").is_disabled()


def test_a_game_offers_only_the_searches_that_fit_it(page):
    page.click("#tab-watch")
    page.select_option("#preset", "2048-end")  # one player and chance: expectimax
    offered = page.locator("#watch-algorithm option:not([disabled])")
    assert [o.get_attribute("value") for o in offered.all()] == ["expectimax", "expectimax-full", "mcts"]
    assert page.locator("#editor-game").text_content() == "2048"  # the editor says whose state it holds
    page.select_option("#preset", "own")
    assert page.locator("#watch-algorithm option[disabled]").count() == 0


@pytest.mark.parametrize("preset", ["connect4-ending", "pacman-maze", "2048-end", "othello-ending"])
def test_mcts_grows_on_a_game_position(page, server, preset):
    """MCTS's tree is the nodes its iterations reached, each with its siblings (the moves it may try)."""
    game = GAMES[preset]
    steps = run(page, preset, "mcts")  # the preset's depth is not sent: MCTS takes none
    state, _ = position(page)
    answer = requests.post(f"{server}/v1/search", timeout=60, json={
        "game": game, "state": state, "algorithm": {"name": "mcts", "iterations": 12, "seed": 1}, "trace": True}).json()
    # at most 12 iterations: Connect Four's win in one is proven after 2
    assert steps == len(answer["trace"]) and 1 < steps <= 12
    assert drawn_size(page) == len(rules(server, game, state, answer["trace"]))
    page.click("#last")
    assert stat(page, "best move") == tile_text(answer["move"])
    assert page.locator('svg.tree g.node[data-path="[]"]').get_attribute("data-visits") == str(steps)
    assert f"MCTS chooses {tile_text(answer['move'])}" in lines(page)[-1]
    assert page.locator("#depth-note").text_content() == ""  # no depth limit to compare
