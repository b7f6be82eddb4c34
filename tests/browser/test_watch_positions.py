"""Issue 54 #3, a real position in the watch view: tic-tac-toe, searched on the `tictactoe` game (the
server's rules and trace), drawn as its game tree with each node's board, told and pruned as the
explicit trees are; MCTS grows on it too."""
import requests

from tests.browser.test_watch import go_to, lines, paths, run, stat

BOARD = ["XOX", "XO.", "..."]  # O to move; 7 completes O's middle column


def test_alpha_beta_on_a_tic_tac_toe_position_draws_its_boards_and_prunes(page, server):
    answer = requests.post(f"{server}/v1/search", timeout=30, json={
        "game": "tictactoe", "state": {"board": BOARD}, "trace": True,
        "algorithm": {"name": "alphabeta", "move_ordering": False, "transposition_table": False}}).json()
    assert run(page, "tictactoe-win", "alphabeta-textbook") == len(answer["trace"]) == answer["stats"]["nodes"]
    root = page.locator('svg.tree g.node[data-path="[]"]')
    assert "".join(root.locator(".mini-board text").all_text_contents()) == "XOXXO"  # its board, cell by cell
    assert page.locator("svg.tree .mini-board").count() == page.locator("svg.tree g.node").count()
    go_to(page, 2)
    assert lines(page, 2)[0] == "Visit the root→5 (MIN) with α = −∞, β = +∞."
    page.click("#last")
    assert stat(page, "best move") == "7" and stat(page, "visited nodes") == str(answer["stats"]["nodes"])
    visited = {f'[{",".join(str(m) for m in e["path"])}]' for e in answer["trace"]}
    drawn = paths(page, "svg.tree g.node")
    assert visited <= drawn and paths(page, "svg.tree g.pruned") and paths(page, "svg.tree g.pruned") <= drawn - visited


def test_mcts_grows_on_a_tic_tac_toe_position(page):
    run(page, "tictactoe-win", "mcts")
    page.click("#last")
    assert stat(page, "best move") == "7"
    assert "MCTS chooses 7" in lines(page)[-1]
