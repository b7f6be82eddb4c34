"""Go's rules checked against OpenSpiel's ``go`` along seeded random games: the same legal moves, the same
board after every move (so the same captures) and the same result when both games end.

OpenSpiel differs in two known ways, each counted here rather than hidden: it lets a move recreate an
earlier position and then ends the game as a draw (positional superko: our rules refuse the move), and it
ends every game after ``max_game_length`` plies. A random game stops where either difference is reached."""
import random

import pytest

import engine.api
from engine.games.go import BOARD
from engine.games.go.board import rows

pyspiel = pytest.importorskip("pyspiel")


def openspiel_rows(state, size):
    """OpenSpiel's board as our rows (top first, X black, O white, . empty)."""
    lines = str(state).splitlines()
    board = [line.split()[1] for line in lines if line.strip() and line.strip()[0].isdigit()][:size]
    return [row.replace("+", ".") for row in board]


def random_game(size, komi, seed, pass_rate=0.05):
    """Play one random game in both engines, passing with probability ``pass_rate`` (else a random legal
    point, a pass when none is left); ``(plies, superko moves OpenSpiel allowed and we refused, how it
    ended)``."""
    rng = random.Random(seed)
    game, state = engine.api.load("go", {"size": size, "komi": komi})
    spiel_game = pyspiel.load_game("go", {"board_size": size, "komi": komi})
    spiel = spiel_game.new_initial_state()
    skipped = 0
    for ply in range(spiel_game.max_game_length()):
        ours = set(game.actions(state))
        theirs = set(spiel.legal_actions())
        assert ours <= theirs
        # Every move OpenSpiel has and we refuse recreates an earlier board (superko), nothing else.
        for a in theirs - ours:
            with pytest.raises(engine.api.EngineError, match="superko"):
                game.move_from_json(game.move_to_json(a), state)
        skipped += len(theirs - ours)
        points = sorted(ours - {size * size})
        move = size * size if not points or rng.random() < pass_rate else rng.choice(points)
        state = game.result(state, move)
        spiel.apply_action(move)
        assert rows(state[BOARD], size) == openspiel_rows(spiel, size), ply
        if game.is_terminal(state):
            assert spiel.is_terminal()
            assert spiel.returns() == list(game.utilities(state))
            return ply + 1, skipped, "two passes"
        if ply + 1 == spiel_game.max_game_length():
            break
        assert not spiel.is_terminal()
    # OpenSpiel scores the board where its cap stops the game, as two passes there would have it.
    assert spiel.is_terminal()
    ended = game.result(game.result(state, size * size), size * size)
    assert spiel.returns() == list(game.utilities(ended))
    return spiel_game.max_game_length(), skipped, "openspiel's length cap"


@pytest.mark.parametrize("size, komi", [(5, 0.5), (7, 7.5), (9, 7.5), (9, 6.0), (4, 2.0), (3, 0.0)])
def test_random_games_agree_with_openspiel(size, komi):
    """Seeded games on each board, each compared to its end or OpenSpiel's cap (its score too), some ending
    by two passes."""
    games = [random_game(size, komi, seed, pass_rate) for seed in range(3) for pass_rate in (0.02, 0.3)]
    assert sum(plies for plies, _, _ in games) >= 6 * size
    assert any(end == "two passes" for _, _, end in games)


def test_superko_moves_are_the_only_difference_and_do_occur():
    """Random games without passes on tiny boards reach positions where OpenSpiel allows a repetition
    (longer than a simple ko, which it refuses too) that our positional superko refuses: each such move is
    checked to be refused for superko in :func:`random_game`, and here they are counted."""
    skipped = [random_game(size, 0.5, seed, pass_rate=0.0)[1] for size in (2, 3) for seed in range(3)]
    assert sum(skipped) >= 2
