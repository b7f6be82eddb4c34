"""Plain references for Othello, on OpenSpiel's rules (``pyspiel`` ``othello``), sharing no code with
``engine``: the checks of the engine's rules and endgame solver (``tests/engine/test_othello.py``,
``python -m bench.othello``).

OpenSpiel numbers the squares as we do (row 1 at the top, ``8 * row + column``, ``d3`` = 19) and a pass is
action 64; player 0 is Black.
"""
import math


def discs(state) -> tuple:
    """``(black, white)`` disc counts of an OpenSpiel othello state (its observation planes: empty,
    player 0's discs, player 1's discs)."""
    tensor = state.observation_tensor(0)
    return int(sum(tensor[64:128])), int(sum(tensor[128:192]))


def board_of(state) -> list:
    """The board of an OpenSpiel othello state as 8 strings of ``B``/``W``/``.``, row 1 first."""
    tensor = state.observation_tensor(0)
    return ["".join("B" if tensor[64 + 8 * r + c] else "W" if tensor[128 + 8 * r + c] else "."
                    for c in range(8)) for r in range(8)]


def final_difference(state, player: int) -> int:
    """The final disc difference for ``player`` at the end of a game, empty squares to the winner."""
    black, white = discs(state)
    mine, theirs = (black, white) if player == 0 else (white, black)
    empty = 64 - mine - theirs
    if mine > theirs:
        return mine - theirs + empty
    if mine < theirs:
        return mine - theirs - empty
    return 0


def solve(state, alpha=-math.inf, beta=math.inf) -> int:
    """The final disc difference with perfect play for the player to move in an OpenSpiel othello state:
    plain negamax alpha-beta, the moves in OpenSpiel's order, no table, no ordering. ``state`` is not over."""
    player = state.current_player()
    best = -math.inf
    for action in state.legal_actions():
        child = state.child(action)
        if child.is_terminal():
            v = final_difference(child, player)
        else:
            v = -solve(child, -beta, -alpha)
        if v > best:
            best = v
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
    return best
