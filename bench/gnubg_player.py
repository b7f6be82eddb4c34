"""gnubg as a benchmark opponent: its 0-ply play (the neural-net evaluation of GNU Backgammon, from the
``gnubg-nn`` package, requirements-bench.txt) chosen among our legal plays.

The mapping: a gnubg board is two lists of 25 counts, ``[opponent, side on roll]``, each from its own
side: index ``i`` is that side's point ``i + 1``, index 24 its bar; checkers borne off are not listed.
That is our representation (engine.games.backgammon: counts from each side's own side, index 0 borne off,
25 the bar) without index 0, so ``board(me, op) == [op[1:], me[1:]]``. A play is identified by the
position it leaves (gnubg's position key), as our moves are: one move per resulting position.
"""
from engine.games.backgammon import BAR

try:
    import gnubg_nn
except ImportError:   # the bench's own dependency (requirements-bench.txt); the player says so when used
    gnubg_nn = None


def require():
    """The gnubg_nn module, or a RuntimeError that says how to install it."""
    if gnubg_nn is None:
        raise RuntimeError("the gnubg opponent needs gnubg-nn: pip install -r requirements-bench.txt")
    return gnubg_nn


def board(me, op) -> list:
    """gnubg's board with ``me`` on roll against ``op`` (our counts, each from its own side)."""
    return [list(op[1:BAR + 1]), list(me[1:BAR + 1])]


def play_key(play) -> str:
    """gnubg's key of the position a play of ours leaves, as ``gnubg_nn.moves`` names it: the mover still
    in the second list."""
    me_after, op_after = play[0], play[1]
    return require().key_of_board(board(me_after, op_after))


def ranked(me, op, dice) -> list:
    """gnubg's plays with ``dice``, best first by its 0-ply cubeless money equity for the mover: ``[(key,
    equity), ...]``, the key of the position each leaves (as :func:`play_key`); empty when no checker moves."""
    g = require()
    _, plays = g.best_move(board(me, op), dice[0], dice[1], n=0, list=1)
    # best_move lists each play's position with the opponent on roll: swap back to the mover's view.
    return [(g.key_of_board(list(reversed(g.board_from_position_key(key)))), value)
            for key, _, _, value in plays]


def gnubg_play(game, state):
    """gnubg's 0-ply best play in ``state`` (a player node of engine.games.backgammon), as our move.
    A LookupError when gnubg's best play is not among our legal plays (the rules or the mapping disagree)."""
    plays = game.actions(state)
    if len(plays) == 1:   # a forced play or a pass (gnubg lists no play for a pass)
        return plays[0]
    x, o, turn, dice = state
    me, op = (x, o) if turn == 0 else (o, x)
    ours = {play_key(play): play for play in plays}
    best = ranked(me, op, dice)[0][0]
    if best not in ours:
        raise LookupError(f"gnubg's play {best} with {dice} is not one of our legal plays in {state}")
    return ours[best]


def equity(me, op) -> float:
    """gnubg's 0-ply cubeless money equity for ``me`` on roll (before its dice) against ``op``."""
    win, win_gammon, win_bg, lose_gammon, lose_bg = require().probabilities(board(me, op), 0)
    return 2.0 * win - 1.0 + win_gammon - lose_gammon + win_bg - lose_bg
