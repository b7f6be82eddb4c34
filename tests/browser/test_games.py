"""The games with boards of their own in a real browser: chess by clicking (a promotion too) with the AI's
SAN reply, Pacman with the arrow keys, 2048's new tiles by the API's probabilities, a draughts multi-jump,
an Othello pass, a backgammon roll and play."""
import json

import requests

from tests.browser.test_play import choose, wait_for_human

SEARCH_MS = 400


def moves_played(page) -> list:
    return [item.text_content() for item in page.locator("#move-list li .move-text").all()]


def wait_for_plies(page, n: int) -> None:
    page.wait_for_function(f"() => document.querySelectorAll('#move-list li').length >= {n}")


def paste(page, text: str) -> None:
    page.click("#paste summary")
    page.fill("#state-text", text)
    page.click("#load-state")


def test_chess_a_move_by_clicking_the_ai_s_reply_in_san_and_a_promotion(page, server):
    choose(page, "chess", "white", "alphabeta", 5000)
    page.fill("#depth", "2")
    page.click('svg.board [data-square="e2"]')
    page.click('svg.board [data-square="e4"]')
    wait_for_human(page, "white", ply=3)
    first, reply = moves_played(page)
    assert first == "e4"
    after_e4 = requests.post(f"{server}/v1/games/chess/legal-moves", timeout=10, json={
        "state": {"fen": "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"}}).json()
    assert reply in after_e4["san"]
    stat = lambda name: page.locator(f'#stats [data-stat="{name}"]').text_content()
    assert stat("move") == reply and stat("PV").split()[0] == reply  # SAN in the thinking too
    assert page.locator('svg.board [data-square="e4"]').get_attribute("data-piece") == "P"

    # A position set up from a bare FEN; a click on the pawn and on its square asks which piece.
    paste(page, "8/P7/8/8/8/8/k7/7K w - - 0 1")
    wait_for_human(page, "white", ply=1)
    page.click('svg.board [data-square="a7"]')
    page.click('svg.board [data-square="a8"]')
    choices = page.locator(".choice button")
    assert sorted(json.loads(b.get_attribute("data-move")) for b in choices.all()) == [
        "a7a8b", "a7a8n", "a7a8q", "a7a8r"]
    page.locator('.choice button[data-move=\'"a7a8q"\']').click()
    wait_for_human(page, "white", ply=3)
    assert moves_played(page)[0].startswith("a8=Q")
    assert page.locator('svg.board [data-square="a8"]').get_attribute("data-piece") == "Q"
    # The state keeps black's king move in its "moves" after the FEN: the board shows it made.
    assert json.loads(page.input_value("#state-text"))["moves"]
    assert page.locator('svg.board [data-piece="k"]').get_attribute("data-square") != "a2"


def test_pacman_moves_with_the_arrow_keys_and_the_ghosts_reply(page):
    choose(page, "pacman", "Pacman", "expectimax", SEARCH_MS)
    page.fill("#depth", "2")
    page.click("#new-game")
    wait_for_human(page, "Pacman", ply=1)
    food = page.locator("svg.maze .food").count()
    assert page.locator("svg.maze .pacman").get_attribute("data-position") == "[3,1]"
    page.keyboard.press("ArrowLeft")  # West, onto a food dot
    wait_for_human(page, "Pacman", ply=4)  # Pacman, then each of the two ghosts
    assert moves_played(page)[0] == "West"
    assert page.locator("svg.maze .pacman").get_attribute("data-position") == "[2,1]"
    assert page.locator("svg.maze .food").count() == food - 1
    assert page.locator("svg.maze .ghost").count() == 2
    state = json.loads(page.input_value("#state-text"))
    assert [g["position"] for g in state["ghosts"]] == [
        json.loads(page.locator(f'svg.maze [data-ghost="{i}"]').get_attribute("data-position")) for i in (1, 2)]


def test_2048_new_tiles_follow_the_api_s_probabilities(page):
    choose(page, "2048", "player", "expectimax", SEARCH_MS)
    page.fill("#extra", '{"tile_probabilities": {"4": 1.0}}')
    paste(page, '{"board": [[2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]}')
    wait_for_human(page, "player", ply=1)
    keys = {"up": "ArrowUp", "down": "ArrowDown", "left": "ArrowLeft", "right": "ArrowRight"}
    for turn in range(1, 4):
        legal = [json.loads(b.get_attribute("data-move")) for b in page.locator("#moves button").all()]
        page.keyboard.press(keys[legal[0]])
        wait_for_human(page, "player", ply=2 * turn + 1)
    tiles = moves_played(page)[1::2]  # every second ply is chance's tile
    assert len(tiles) == 3 and all(t.startswith("4 at ") for t in tiles), tiles
    # The odds the page draws by are the ones the API gives: at a chance state, every outcome is a 4.
    page.fill("#state-text", '{"board": [[2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]], '
                             '"to_move": "chance"}')
    page.select_option("#side", "both (hot seat)")
    page.click("#load-state")
    wait_for_human(page, "player", ply=2)
    assert len(moves_played(page)) == 1 and moves_played(page)[0].startswith("4 at ")


def test_a_draughts_multi_jump_by_clicking_its_two_ends(page):
    choose(page, "checkers", "b", "alphabeta", SEARCH_MS)
    paste(page, '{"fen": "B:W14,22,23:B9,1"}')
    wait_for_human(page, "b", ply=1)
    page.click('svg.board [data-square="9"]')
    page.click('svg.board [data-square="25"]')
    wait_for_plies(page, 1)
    assert moves_played(page)[0] == "9x18x25"
    assert page.locator('svg.board [data-square="25"]').get_attribute("data-piece") in ("b", "B")
    assert page.locator('svg.board [data-square="14"]').get_attribute("data-piece") is None


OTHELLO_PASS = {"board": ["BBBBBB..", "WBBBBBBB", "BWBBBWBB", "BBWBBBBB", "BBWWBWBB", "BWBWBBWB", "BWWBBWWB",
                          "BWBBBBBB"], "to_move": "B"}


def test_othello_a_player_without_a_square_passes_and_the_ai_plays_on(page):
    choose(page, "othello", "B", "alphabeta", SEARCH_MS)
    paste(page, json.dumps(OTHELLO_PASS))
    wait_for_human(page, "B", ply=1)
    assert page.locator("svg.board g.playable").count() == 0
    page.click('#moves button[data-move=\'"pass"\']')
    wait_for_plies(page, 2)
    played = moves_played(page)
    assert played[0] == "pass" and played[1] in ("g1", "h1")


def test_backgammon_rolls_and_plays(page):
    choose(page, "backgammon", "X", "expectimax", SEARCH_MS)
    wait_for_human(page, "X", ply=2)  # chance rolled for X first
    high, low = moves_played(page)[0].split("-")
    assert sorted(t.text_content() for t in page.locator('[data-testid="dice"] .die-pips').all()) == sorted([high, low])
    page.locator("#moves button").first.click()
    wait_for_human(page, "X", ply=6)  # X's play, O's roll and play, X's roll
    assert len(moves_played(page)) == 5
    state = json.loads(page.input_value("#state-text"))
    assert sum(max(0, n) for n in state["points"]) + state["bar"]["X"] + state["off"]["X"] == 15
    assert state["points"] != [-2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2]


def test_go_a_stone_by_clicking_its_point_and_the_ai_s_reply(page):
    """A Go state keeps only its moves: the board is drawn from the rules' answer, with GTP's coordinates."""
    choose(page, "go", "B", "mcts", SEARCH_MS)
    paste(page, json.dumps({"size": 9, "komi": 7.5, "moves": []}))
    wait_for_human(page, "B", ply=1)
    assert page.locator("svg.board.go g[data-square]").count() == 81
    page.click('svg.board [data-square="E5"]')
    wait_for_human(page, "B", ply=3)
    first, reply = moves_played(page)
    assert first == "E5" and reply != "E5"
    assert page.locator('svg.board [data-square="E5"]').get_attribute("data-piece") == "X"
    assert json.loads(page.input_value("#state-text"))["moves"][0] == "E5"
    if reply != "pass":
        assert page.locator(f'svg.board [data-square="{reply}"]').get_attribute("data-piece") == "O"
