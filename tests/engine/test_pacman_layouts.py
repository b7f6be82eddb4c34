"""Issue 34 #6: a CS188 student's .lay files load as they are, with the meaning CS188's ``layout.py`` gives
them (``tryToLoad`` strips each line; ``Layout`` takes the first row's width and ``len(layoutText)`` rows;
``%`` wall, ``.`` food, ``o`` capsule, ``P`` Pacman, ``G`` a ghost, ``1``-``4`` numbered ghosts, anything
else empty; agents sorted by (number, (x, y)) with ``G`` as 1). The shared layouts are read from
``$TACTICIAN_PACMAN_DATA`` or ``../shared/data/pacman`` (skipped when absent)."""
import pytest

from bench.pacman_layouts import data_dir
from engine import api
from engine.errors import AlgorithmMismatch, InvalidState

GHOST_NUMBERS = {"G": 1, "1": 1, "2": 2, "3": 3, "4": 4}


def cs188_layout(text: str) -> dict:
    """What CS188's ``layout.py`` makes of a .lay file's text, written again plainly: walls, food,
    capsules, Pacman's start and the ghosts' starts in agent order, in CS188's (x, y)."""
    rows = [line.strip() for line in text.splitlines()]
    width, height = len(rows[0]), len(rows)
    walls, food, capsules, agents = set(), set(), set(), []
    for y in range(height):
        for x in range(width):
            ch = rows[height - 1 - y][x]
            if ch == "%":
                walls.add((x, y))
            elif ch == ".":
                food.add((x, y))
            elif ch == "o":
                capsules.add((x, y))
            elif ch == "P":
                agents.append((0, (x, y)))
            elif ch in GHOST_NUMBERS:
                agents.append((GHOST_NUMBERS[ch], (x, y)))
    agents.sort()
    return {"food": food, "capsules": capsules, "pacman": agents[0][1], "ghosts": [pos for _, pos in agents[1:]],
            "walls": walls, "size": (width, height)}


def ours(layout) -> dict:
    """The same from the game's own answer for ``{"layout": layout}``."""
    game, state = api.load("pacman", {"layout": layout})
    answer = game.state_to_json(state)
    walls = {(x, game.height - 1 - r) for r, row in enumerate(answer["layout"]) for x, ch in enumerate(row)
             if ch == "%"}
    return {"food": {tuple(c) for c in answer["food"]}, "capsules": {tuple(c) for c in answer["capsules"]},
            "pacman": tuple(answer["pacman"]["position"]), "walls": walls, "size": (game.width, game.height),
            "ghosts": [tuple(g["start"]) for g in answer["ghosts"]]}


def the_forms(text: str) -> dict:
    """The ways a student sends a file's text: one string, its lines with their newlines, its lines."""
    return {"one string": text, "lines with newlines": text.splitlines(keepends=True),
            "lines": text.split("\n")}


def shared_files() -> list:
    files = sorted(data_dir().glob("*.lay"))
    return files or [pytest.param(None, marks=pytest.mark.skip(f"no shared layouts in {data_dir()}"))]


@pytest.mark.parametrize("path", shared_files(), ids=lambda p: getattr(p, "stem", "none"))
def test_every_shared_layout_loads_as_it_is_with_cs188s_meaning(path):
    text = path.read_text()
    for form, layout in the_forms(text).items():
        assert ours(layout) == cs188_layout(text), form


@pytest.mark.parametrize("name, text", [
    ("trailing spaces and a newline", "%%%%%  \n%P.G%\n%%%%%   \n"),
    ("a row longer than the first, as capsuleClassic's last", "%%%%%\n%P.G%\n%%%%%%\n"),
    ("numbered ghosts: by number, then (x, y)", "%%%%%%%\n%2P.G3%\n%1...4%\n%%%%%%%"),
    ("no ghost", "%%%%\n%P.%\n%%%%"),
])
def test_what_cs188_accepts_loads_with_the_same_meaning(name, text):
    for form, layout in the_forms(text).items():
        assert ours(layout) == cs188_layout(text), form


@pytest.mark.parametrize("layout, row, ch", [(["%%%%%", "%PXG%", "%%%%%"], 1, "X"),
                                             ("%%%%%\n%P.G%\n%-x.%\n%%%%%", 2, "-"), (["%%%%%", "%P\tG%", "%%%%%"], 1, "\t")])
def test_a_character_that_is_no_cell_is_refused_naming_its_row(layout, row, ch):
    """CS188 reads any other character as an empty cell, so a typo (``X`` for ``%``) made a floor."""
    with pytest.raises(InvalidState) as refused:
        api.load("pacman", {"layout": layout})
    (message,) = refused.value.errors[f"state.layout[{row}]"]
    assert repr(ch) in message


def test_a_maze_without_ghosts_is_played_and_searched_to_its_win():
    """Pacman alone: a one-player game, searched by expectimax or max^n (minimax and alpha-beta need two
    sides, and say so)."""
    state = {"layout": ["%%%%", "%P.%", "%%%%"]}
    for name in ("expectimax", "maxn"):
        answer = api.search("pacman", state, {"name": name, "depth": 2}, 1000)
        assert (answer.move, answer.value) == ("East", 509.0), name
    with pytest.raises(AlgorithmMismatch, match="two sides"):
        api.search("pacman", state, {"name": "alphabeta", "depth": 2}, 1000)
    won = api.apply("pacman", state, "East")
    assert won["terminal"] and won["to_move"] is None and won["utilities"] == {"Pacman": 509.0}


def test_an_answer_that_ends_the_game_says_so_in_its_state_and_loads_back():
    """apply answered "to_move": null beside a state still saying "to_move": "Ghost1" and "result": "win"."""
    won = api.apply("pacman", {"layout": ["%%%%%", "%P.G%", "%%%%%"]}, "East")
    assert won["to_move"] is None and won["state"]["to_move"] is None and won["state"]["result"] == "win"
    again = api.legal_moves("pacman", won["state"])
    assert again["terminal"] and again["to_move"] is None
    with pytest.raises(InvalidState) as refused:
        api.load("pacman", {**won["state"], "to_move": "Ghost1"})
    assert "state.to_move" in refused.value.errors
