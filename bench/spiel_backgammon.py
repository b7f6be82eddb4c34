"""OpenSpiel's ``backgammon`` seen as our states (engine.games.backgammon), for the rules test and the
match against OpenSpiel's MCTS bot: positions read from its observation tensor, turns played out as
action sequences (OpenSpiel plays a doubles turn as two actions of two checkers each)."""
import re


def spiel_position(s):
    """(x, o) counts from each side (0 off, 1..24 its points, 25 bar) of an OpenSpiel backgammon state,
    from its observation tensor as X sees it: four units a board position for X (0..95) and for O
    (96..191), each [1 checker, 2, 3, n - 3 beyond]; then X's bar and borne off (192, 193), O's (195,
    196). OpenSpiel's position p is X's point 24 - p and O's point p + 1."""
    t = s.observation_tensor(0)
    x, o = [0] * 26, [0] * 26
    for p in range(24):
        x[24 - p], o[p + 1] = count(t, 4 * p), count(t, 96 + 4 * p)
    x[25], x[0], o[25], o[0] = int(t[192]), int(t[193]), int(t[195]), int(t[196])
    return tuple(x), tuple(o)


def count(t, i):
    return 1 if t[i] else 2 if t[i + 1] else 3 if t[i + 2] else 3 + int(t[i + 3]) if t[i + 3] else 0


def spiel_dice(s) -> tuple:
    """The roll of a player node, higher die first."""
    return tuple(sorted(map(int, re.search(r"Dice: (\d+)", str(s)).group(1)), reverse=True))


def turn_ends(s, player, out: dict, line=(), seen=None):
    """``out[position] = actions`` for every position ``player`` can reach by the end of its turn from
    ``s`` (one action sequence each); an intermediate position is expanded once per depth."""
    seen = set() if seen is None else seen
    position = spiel_position(s)
    if s.is_terminal() or s.is_chance_node() or s.current_player() != player:
        out.setdefault(position, line)
        return
    if (len(line), position) in seen:
        return
    seen.add((len(line), position))
    for a in s.legal_actions():
        turn_ends(s.child(a), player, out, line + (a,), seen)
