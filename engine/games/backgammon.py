"""Backgammon: dice as chance nodes, whole plays as moves, single games scored 1, 2 or 3 points.

A state is the named tuple :class:`State` ``(x, o, turn, dice)``. ``x`` and ``o`` are each side's checkers
as 26 counts from its own side, the way the side moves: index 0 is borne off, 1..24 its points (1 is its ace
point, where it bears off from), 25 its bar. X's point ``i`` is the board's point ``i`` (``points[i - 1]``
in JSON); O's point ``i`` is the board's point ``25 - i``. ``turn`` is 0 (X) or 1 (O); ``dice`` is None at a
chance node (``turn`` is about to roll) or the roll ``(high, low)`` once rolled.

At a chance node the outcomes are the 21 distinct rolls: doubles 1/36, the others 2/36. With dice set,
the player to move chooses a whole play: the move is the triple ``(mover, other, parts)`` of both sides'
counts after the play (mover first, each from its own side) and the single-checker steps that made it,
``(from, to, hit)`` with ``to`` 0 for borne off. Plays that reach the same position are one move.

The rules: a checker on the bar enters first (die ``d`` enters on the mover's point ``25 - d``); a
point held by two or more of the opponent's checkers is closed; landing on a lone opponent checker (a
blot) hits it onto the bar. Both dice must be used when they can be, the larger when only one can;
doubles are played four times; checkers bear off only when all 15 are home (points 1..6), with the exact
number or, from the highest occupied point, a larger one. A player with no legal step passes.

Results (utilities of the winner; the loser gets the negation): 1 point, 2 for a gammon (the loser has
borne off no checker), 3 for a backgammon (a gammon where the loser still has a checker on the bar or in
the winner's home board). The doubling cube is not modelled.
"""
from functools import lru_cache
from itertools import permutations
import math
from operator import mul
from typing import NamedTuple

from engine.errors import IllegalMove, InvalidState
from engine.games import backgammon_net
from engine.registry import EXPLICIT_CHANCE, GameOption, GameType, Player, chosen_evaluation, player_ids
from engine.game import CHANCE, EVALUATION, MOVE_ORDERING, Game

GAME_ID = "backgammon"
PLAYER_INFO = (Player("X", "X (white)", "#f4f1e8"), Player("O", "O (black)", "#222222"))
PLAYERS = player_ids(PLAYER_INFO)
CHECKERS = 15
BAR, OFF = 25, 0
START = (0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)  # either side
ROLLS = tuple((a, b) for a in range(6, 0, -1) for b in range(a, 0, -1))            # (high, low)


class State(NamedTuple):
    """A position: the checkers, the player whose turn it is, and the dice once rolled."""

    x: tuple            # X's 26 counts from its own side: 0 borne off, 1..24 its points, 25 its bar
    o: tuple            # O's, from O's side
    turn: int           # 0 (X) or 1 (O)
    dice: tuple | None  # (high, low) once rolled; None at a chance node
ROLL_OUTCOMES = tuple((r, (1 if r[0] == r[1] else 2) / 36) for r in ROLLS)
PASS = "pass"
POINT_INDEX = tuple(range(26))   # a checker on point i is i pips from home (the bar: 25)

# --- the rules --------------------------------------------------------------------------------------


def step(me: list, op: list, src: int, die: int):
    """Move one of ``me``'s checkers from ``src`` by ``die`` in place, if legal: ``(to, hit)``, else None.

    Bearing off (``to`` 0) needs every checker home, and a die larger than the point only from the
    highest occupied point."""
    to = src - die
    if to > 0:
        there = op[25 - to]
        if there > 1:
            return None
        me[src] -= 1
        me[to] += 1
        if there:
            op[25 - to] = 0
            op[BAR] += 1
        return to, bool(there)
    if any(me[7:]) or (to < 0 and any(me[src + 1:7])):
        return None
    me[src] -= 1
    me[OFF] += 1
    return 0, False


def undo(me: list, op: list, src: int, to: int, hit: bool) -> None:
    me[src] += 1
    me[to] -= 1
    if hit:
        op[25 - to] = 1
        op[BAR] -= 1


@lru_cache(maxsize=512)
def plays(me: tuple, op: tuple, dice: tuple) -> tuple:
    """Every legal play of the side ``me`` (against ``op``) with ``dice`` ``(high, low)``, one per
    resulting position: ``((me_after, op_after, parts), ...)`` in the order found (larger die first,
    checkers from the back first); ``((me, op, ()),)`` when no checker can move (a pass).

    A depth-first search over the steps keeps the plays that use the most dice; when only one die of
    a non-double can be used, only the plays of the larger if there are any. With doubles the steps go
    from non-increasing points (any legal order of steps can be so rearranged, to the same position),
    so each combination is tried once."""
    high, low = dice
    finder = PlayFinder(me, op, doubles=high == low)
    if finder.doubles:
        finder.search((high,) * 4, [], 24)
    else:
        finder.search((high, low), [], 24)
        finder.search((low, high), [], 24)
    found = finder.found
    if finder.most == 1 and not finder.doubles and any(parts[0][3] == high for parts in found.values()):
        found = {k: parts for k, parts in found.items() if parts[0][3] == high}
    return tuple((m, o, tuple(p[:3] for p in parts)) for (m, o), parts in found.items())


class PlayFinder:
    """The depth-first search of :func:`plays` over one side's steps: ``found`` maps each position reached
    with the most dice used (``most``) to the steps that reached it first. An object rather than nested
    functions: a recursive closure refers to itself, a reference cycle that only the cyclic collector
    frees, and the collector is held off while a search runs (:mod:`engine.collector`), so the rollouts of
    a search piled millions of objects up for one long collection after it (issue 34)."""

    __slots__ = ("me", "op", "doubles", "most", "found")

    def __init__(self, me: tuple, op: tuple, doubles: bool):
        self.me, self.op, self.doubles = list(me), list(op), doubles
        self.most = 0
        self.found: dict[tuple, tuple] = {}

    def record(self, parts: list) -> None:
        used = len(parts)
        if used < self.most:
            return
        if used > self.most:
            self.most = used
            self.found.clear()
        key = (tuple(self.me), tuple(self.op))
        if key not in self.found:
            self.found[key] = tuple(parts)

    def search(self, left: tuple, parts: list, top: int) -> None:
        """Play the dice ``left`` in order from points ``top`` and below, after the steps ``parts``."""
        me, op, die = self.me, self.op, left[0]
        moved = False
        sources = (BAR,) if me[BAR] else range(top, 0, -1)
        for src in sources:
            if not me[src]:
                continue
            done = step(me, op, src, die)
            if done is None:
                continue
            moved = True
            parts.append((src, done[0], done[1], die))
            if len(left) > 1:
                self.search(left[1:], parts, src if self.doubles else 24)
            else:
                self.record(parts)
            parts.pop()
            undo(me, op, src, *done)
        if not moved:
            self.record(parts)


def notation(parts: tuple) -> str:
    """A play in standard notation from the mover's side: ``"24/18 13/11"``, ``"bar/22*"``, ``"6/off"``,
    one part per die, from the back; ``"pass"`` when no checker moved."""
    if not parts:
        return PASS
    ordered = sorted(parts, key=lambda p: (-p[0], -p[1]))
    return " ".join(f"{'bar' if src == BAR else src}/{'off' if to == OFF else to}{'*' if hit else ''}"
                    for src, to, hit in ordered)


def pips(side) -> int:
    return sum(map(mul, side, POINT_INDEX))


def winner_points(winner, loser) -> int:
    """1, 2 (gammon) or 3 (backgammon) for a finished game, ``winner`` having borne off all 15."""
    if loser[OFF]:
        return 1
    if loser[BAR] or any(loser[19:25]):  # the loser's 19..24 are the winner's home board
        return 3
    return 2


# --- the evaluation ------------------------------------------------------------------------------

ROLL_PIPS = 8.17        # the mean pips of a roll


def contact(x, o) -> bool:
    """Whether some checker still has to pass an opponent's: X's rearmost point against O's."""
    back_x = max(i for i in range(26) if x[i])
    back_o = max(i for i in range(26) if o[i])
    return back_x + back_o > 25


def effective_pips(side) -> float:
    """The pip count plus wastage (after Keith): checkers stacked on the low points, gaps in the home."""
    count = pips(side)
    count += 2 * max(0, side[1] - 1) + max(0, side[2] - 1) + max(0, side[3] - 3)
    count += sum(1 for i in (4, 5, 6) if not side[i])
    return count


def race_equity(on_roll, other) -> float:
    """Equity (points) of the side on roll in a pure race: the chance to finish first from the lead in
    effective pips (a roll's tempo is worth about 4 pips), normal-approximated; and gammons, when the
    other side has borne off nothing and still needs more rolls to bring its checkers home and bear one
    off than the side on roll needs to finish."""
    mine, theirs = effective_pips(on_roll), effective_pips(other)
    spread = math.sqrt(2.3 * (mine + theirs)) + 1.0
    p = 1.0 / (1.0 + math.exp(-1.7 * (theirs - mine + 4.0) / spread))
    equity = 2.0 * p - 1.0
    if not other[OFF]:   # other's turns to save the gammon against the turns it gets before we finish
        equity += 1.0 / (1.0 + math.exp(-2.0 * (turns_to_save(other) - mine / ROLL_PIPS + 1.0)))
    if not on_roll[OFF]:
        equity -= 1.0 / (1.0 + math.exp(-2.0 * (turns_to_save(on_roll) - theirs / ROLL_PIPS)))
    return equity


def turns_to_save(side) -> float:
    """About how many rolls ``side`` needs to bring every checker home and bear one off."""
    return sum((i - 6) * n for i, n in enumerate(side) if i > 6) / ROLL_PIPS + 1.0


NET, LEARNED = "net", "learned"       # the evaluations (the ``evaluation`` option); NET the default


@lru_cache(maxsize=1 << 16)
def equity(x, o, turn, evaluation: str = NET) -> float:
    """The expected points of the side on roll (``turn``) in a game in progress, kept inside (-3, 3). By
    the ``net`` evaluation: the race formula once no checker has to pass an opponent's, else the contact
    network (:mod:`engine.games.backgammon_net`); by ``learned``: the learned race and contact nets. Cached:
    a search meets the same board under each of the 21 rolls, and again as a move-ordering child."""
    on_roll, other = (x, o) if turn == 0 else (o, x)
    if evaluation == LEARNED:
        value = backgammon_net.learned("contact" if contact(x, o) else "race").equity(on_roll, other)
    else:
        value = race_equity(on_roll, other) if not contact(x, o) else backgammon_net.contact_equity(on_roll, other)
    return max(-2.99, min(2.99, value))


# --- the game ----------------------------------------------------------------------------------------

START_JSON = {"points": [-2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2],
              "bar": {"X": 0, "O": 0}, "off": {"X": 0, "O": 0}, "to_move": "X"}
MOVE_SCHEMA = {"type": "string", "description": "a play in standard notation from the mover's side "
               "(\"24/18 13/11\", \"bar/22\", \"6/off\", \"pass\"), or at a chance node a roll \"6-5\""}

EVALUATION_OPTION = GameOption(
    name="evaluation",
    schema={"type": "string", "enum": [NET, LEARNED], "default": NET},
    description="the evaluation at the search's horizon: \"net\" (default: the 32-unit contact net of "
                "engine/games/backgammon_net.txt and the race formula) or \"learned\" (the learning "
                "pipeline's contact and race nets, engine/games/backgammon_contact.txt and "
                "backgammon_race.txt); both cores, the same values")

GAME_TYPE = GameType(
    id=GAME_ID,
    name="Backgammon",
    description="Two players race their 15 checkers around 24 points and off the board, moving by two "
                "dice each turn (doubles count four times); a lone checker can be hit and must re-enter "
                "from the bar. A single game is worth 1 point, a gammon 2 (the loser has borne off "
                "nothing), a backgammon 3 (a gammon with a loser's checker still on the bar or in the "
                "winner's home board). The doubling cube is not modelled. The opening roll is not "
                "modelled either: the state says who is to roll, and the first player rolls both dice "
                "(any of the 21 rolls); to play the usual opening rule, set to_move and a non-double "
                "dice pair yourself.",
    state_format="{\"points\": [24 integers], \"bar\": {\"X\": n, \"O\": n}, \"off\": {\"X\": n, \"O\": n}, "
                 "\"to_move\": \"X\" | \"O\", \"dice\": [d1, d2] | null}. points[i] is the checkers on "
                 "point i + 1 counted from X's side: positive for X, negative for O. X moves from point "
                 "24 towards 1 and bears off below 1 (X's home board is points 1-6); O moves the other "
                 "way (O's home board is points 19-24). Each side has 15 checkers on the points, the "
                 "bar and off. dice null: a chance node, the player to move is about to roll. Defaults: "
                 "the standard start for points, 0 on the bar and off, X to move, dice null.",
    initial_state={**START_JSON, "dice": None},
    move_format="With dice set, a whole play in standard notation, points numbered from the mover's own "
                "side (its 24-point is where its back checkers start; for O, its point n is the board's "
                "point 25 - n): \"24/18 13/11\", \"bar/22*\" (* marks a hit and may be left out), "
                "\"6/off\", one part per die, up to four for doubles, or \"pass\" when no checker can "
                "move. Plays that reach the same position are one move; any of their spellings is "
                "accepted. At a chance node (dice null) a roll, higher die first: \"6-5\", \"3-3\".",
    example_request={"game": GAME_ID,
                     "state": {**START_JSON, "dice": [3, 1]},
                     "algorithm": {"name": "expectimax", "depth": 3}, "time_limit_ms": 1000},
    players=PLAYERS,
    player_info=PLAYER_INFO,
    conventions="The players are X and O, as in GNU Backgammon. points[i] is point i + 1 counted from X's "
                "side (X's checkers positive, O's negative), but a play is written in its mover's own "
                "numbering, as players write it: O's point n is points[24 - n]. A play's steps give from and "
                "to as indices of points, or \"bar\" and \"off\".",
    chance=EXPLICIT_CHANCE,
    zero_sum=True,
    alternating=False,
    outcomes=False,
    utility_bounds=(-3.0, 3.0),
    max_length=None,
    key_fixes_ply=False,
    depth_step=2,
    native_core=True,
    options=(EVALUATION_OPTION,),
    value_unit="expected points won (+) or lost (-) by the player to move, without the cube: a single game 1, a gammon 2, a backgammon 3 (an equity in [-3, 3])",
    value_scale="value",
    move_schema=MOVE_SCHEMA,
    sample_states=(
        {"points": [0, 2, 2, 3, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -3, -3, -3, -2, -2, -2],
         "off": {"X": 4, "O": 0}, "to_move": "O", "dice": None},
        {"points": [-2, 2, 2, 2, 2, 2, 2, 0, 0, 0, 0, -5, 0, 0, 0, 0, -3, 0, -4, 0, 0, 0, 0, 0],
         "bar": {"X": 1, "O": 1}, "off": {"X": 2, "O": 0}, "to_move": "X", "dice": [6, 6]},
    ),
)


class Backgammon(Game):
    """Backgammon without the cube. Utilities are the points won (+1, +2, +3) or lost; the evaluation
    is an estimate of the same expected points, strictly inside (-3, 3)."""

    id = GAME_ID
    game_type = GAME_TYPE
    capabilities = frozenset({EVALUATION, MOVE_ORDERING})

    def __init__(self, evaluation: str = NET):
        self.evaluation = evaluation

    # --- the rules ---

    def to_move(self, state):
        return CHANCE if state.dice is None else state.turn

    def actions(self, state):
        if state.dice is None:
            return list(ROLLS)
        x, o, turn, dice = state
        return list(plays(x, o, dice) if turn == 0 else plays(o, x, dice))

    def result(self, state, move):
        x, o, turn, dice = state
        if dice is None:
            return State(x, o, turn, move)
        me, op, _ = move
        return State(me, op, 1, None) if turn == 0 else State(op, me, 0, None)

    def chance_outcomes(self, state):
        return list(ROLL_OUTCOMES)

    def is_terminal(self, state):
        return state.x[OFF] == CHECKERS or state.o[OFF] == CHECKERS

    def utility(self, state, player):
        x, o = state.x, state.o
        if x[OFF] == CHECKERS:
            points = winner_points(x, o)
            return float(points if player == 0 else -points)
        if o[OFF] == CHECKERS:
            points = winner_points(o, x)
            return float(points if player == 1 else -points)
        return 0.0

    # --- knowledge ---

    def evaluate(self, state, player):
        """The expected points of ``player`` (see :func:`equity`); exact at the end of the game. The
        dice are not looked at: the side on roll is the player to move, before or after its roll."""
        x, o, turn, _ = state
        if x[OFF] == CHECKERS or o[OFF] == CHECKERS:
            return self.utility(state, player)
        value = equity(x, o, turn, self.evaluation)
        return value if player == turn else -value

    def ordered_actions(self, state):
        """The plays, the best for the mover first by the evaluation of the position after them (rolls,
        at a chance node, in their natural order)."""
        moves = self.actions(state)
        if state.dice is None or len(moves) < 2:
            return moves
        mover, result, evaluate = state.turn, self.result, self.evaluate
        return sorted(moves, key=lambda m: -evaluate(result(state, m), mover))

    # --- the compiled core ---

    def native_state(self, state):
        """The state as the compiled core reads it (native/src/bindings/backgammon.cpp): ``(x, o, turn,
        dice)`` as here, the evaluation's name fifth when it is not the default."""
        return tuple(state) if self.evaluation == NET else (*state, self.evaluation)

    def native_root_moves(self, state):
        """The compiled core's moves at ``state`` (engine/search/native.py): a code is the play's index
        among :meth:`actions`."""
        return self.actions(state).__getitem__

    # --- JSON ---

    def move_to_json(self, move):
        if len(move) == 2:
            return f"{move[0]}-{move[1]}"
        return notation(move[2])

    def move_from_json(self, value, state):
        if not isinstance(value, str):
            raise IllegalMove("a move is a string: a play like \"24/18 13/11\", or a roll like \"6-5\"")
        x, o, turn, dice = state
        if dice is None:
            return parse_roll(value)
        me, op = (x, o) if turn == 0 else (o, x)
        return parse_play(value, me, op, dice)

    def move_extras(self, state, move):
        """A play's ``steps`` (as in legal-moves' ``plays``); nothing for a roll."""
        if state.dice is None:
            return {}
        return {"steps": steps_json(move[2], state.turn)}

    def result_extras(self, state):
        """The ``kind`` of win (single, gammon, backgammon) and the ``points`` it scores."""
        x, o, _, _ = state
        points = winner_points(*((x, o) if x[OFF] == CHECKERS else (o, x)))
        return {"kind": RESULT_KINDS[points], "points": points}

    def position_extras(self, state):
        """``plays`` (dice set, game on): each legal play with its ``steps`` in the ``points`` indexing
        and the ``state`` it leads to."""
        x, o, turn, dice = state
        if dice is None or self.is_terminal(state):
            return {}
        return {"plays": [{"move": self.move_to_json(move), "steps": steps_json(move[2], turn),
                           "state": self.state_to_json(self.result(state, move))}
                          for move in self.actions(state)]}

    def state_to_json(self, state):
        x, o, turn, dice = state
        points = [x[i + 1] - o[24 - i] for i in range(24)]
        return {"points": points, "bar": {"X": x[BAR], "O": o[BAR]}, "off": {"X": x[OFF], "O": o[OFF]},
                "to_move": PLAYERS[turn], "dice": None if dice is None else list(dice)}


GAME = Backgammon()
GAMES = {NET: GAME, LEARNED: Backgammon(LEARNED)}     # the game of each evaluation (its nets read on first use)


RESULT_KINDS = {1: "single", 2: "gammon", 3: "backgammon"}


def board_index(point: int, turn: int):
    """A point of the mover's numbering (25 the bar, 0 off) as an index of ``points`` (X's numbering less
    one), or ``"bar"`` / ``"off"``."""
    if point == BAR:
        return "bar"
    if point == OFF:
        return "off"
    return point - 1 if turn == 0 else 24 - point


def steps_json(parts: tuple, turn: int) -> list:
    """A play's single-checker steps, in the order played: ``{"from", "to", "hit"}`` in ``points``'s
    indexing (a front end animates them one by one)."""
    return [{"from": board_index(src, turn), "to": board_index(to, turn), "hit": hit} for src, to, hit in parts]


def parse_roll(value: str) -> tuple:
    parts = value.strip().split("-")
    if len(parts) != 2 or not all(p.strip() in ("1", "2", "3", "4", "5", "6") for p in parts):
        raise IllegalMove(f"dice is null, so this is a chance node and the move is a roll, two dice 1-6 "
                          f"like \"6-5\"; got {value!r}")
    a, b = int(parts[0]), int(parts[1])
    return max(a, b), min(a, b)


def hit_marks(value: str) -> set | None:
    """The points (the mover's numbering) that ``value`` marks as hit with ``*`` (``"bar/22*"``: 22);
    None if a mark is not after a point."""
    marked = set()
    for token in value.lower().split():
        token = token.split("(")[0]
        for name in token.split("/")[1:]:
            if name.endswith("*"):
                name = name.rstrip("*")
                if not name.isdigit():
                    return None
                marked.add(int(name))
    return marked


def parse_steps(value: str) -> list | None:
    """``"24/18 13/11(2) bar/22*"`` -> ``[(24, 18), (13, 11), (13, 11), (25, 22)]`` (chains such as
    ``24/18/13`` become one step per link); None if it does not read as a play."""
    steps = []
    for token in value.lower().replace("*", "").split():
        count = 1
        if token.endswith(")") and "(" in token:
            token, _, n = token[:-1].partition("(")
            if not n.isdigit() or not 1 <= int(n) <= 4:
                return None
            count = int(n)
        names = token.split("/")
        if len(names) < 2:
            return None
        try:
            links = [BAR if n == "bar" else OFF if n == "off" else int(n) for n in names]
        except ValueError:
            return None
        if not all(0 <= p <= 25 for p in links):
            return None
        steps += [(a, b) for a, b in zip(links, links[1:])] * count
    return steps if 0 < len(steps) <= 4 else None


def parse_play(value: str, me: tuple, op: tuple, dice: tuple):
    """The legal play that ``value`` names: its steps played in some order with some assignment of the
    dice must reach the position of a legal play (so every spelling of a play is accepted)."""
    legal = plays(me, op, dice)
    by_position = {(play[0], play[1]): play for play in legal}
    text = value.strip()
    if text.lower() == PASS:
        if legal[0][2] == ():
            return legal[0]
        raise IllegalMove(f"a pass is legal only when no checker can move; legal here: "
                          f"{[notation(p) for _, _, p in legal]}")
    steps, marked = parse_steps(text), hit_marks(text)
    if steps is not None and marked is not None:
        pool = [dice[0]] * 4 if dice[0] == dice[1] else list(dice)
        for order in set(permutations(steps)):
            for m, o in positions_after(list(me), list(op), list(order), pool):
                if (m, o) in by_position:
                    false = sorted(d for d in marked if not 1 <= d <= 24 or op[25 - d] != 1 or o[25 - d])
                    if false:
                        raise IllegalMove(f"{value!r} marks a hit (*) on {false[0]}, where this play hits no "
                                          f"blot; the play is {notation(by_position[(m, o)][2])!r}")
                    return by_position[(m, o)]
    raise IllegalMove(f"{value!r} is not a legal play with dice {list(dice)}; legal here: "
                      f"{[notation(p) for _, _, p in legal]}")


def positions_after(me: list, op: list, steps: list, pool: list):
    """The positions reached by playing ``steps`` in order with the dice left in ``pool``: a step is one
    die that moves the checker exactly (bearing off, possibly a larger one) or several that pass through
    intermediate points (``24/13`` with a 6-5), as the rules allow each of them."""
    if not steps:
        yield tuple(me), tuple(op)
        return
    (src, to), rest = steps[0], steps[1:]
    if not me[src] or to >= src or (me[BAR] and src != BAR):
        return
    for die in sorted(set(pool)):
        landing = src - die
        if landing > max(to, 0):
            then = [(landing, to)] + rest                     # part of a combined step
        elif landing == to or (to == OFF and landing < 0):
            then = rest
        else:
            continue
        done = step(me, op, src, die)
        if done is None:
            continue
        remaining = list(pool)
        remaining.remove(die)
        yield from positions_after(me, op, then, remaining)
        undo(me, op, src, *done)


def parse_count(value, field: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= CHECKERS:
        raise InvalidState(f"a checker count is an integer from 0 to {CHECKERS}", field=field)
    return value


def parse_pair(state_json, name: str) -> tuple:
    pair = state_json.get(name, {"X": 0, "O": 0})
    if not isinstance(pair, dict) or set(pair) - {"X", "O"}:
        raise InvalidState(f"{name} is an object {{\"X\": n, \"O\": n}}", field=f"state.{name}")
    return parse_count(pair.get("X", 0), f"state.{name}.X"), parse_count(pair.get("O", 0), f"state.{name}.O")


def game_for(evaluation) -> "Backgammon":
    """The game valued by the ``evaluation`` option; :class:`InvalidState` on ``options.evaluation`` for
    another value."""
    return chosen_evaluation(GAMES, NET, evaluation)


def load(state_json, limits=None, evaluation=None, **_):
    """``(game, state)`` from the JSON state, under the ``evaluation`` option; :class:`InvalidState` names
    the field at fault."""
    game = game_for(evaluation)
    unknown = set(state_json) - {"points", "bar", "off", "to_move", "dice"}
    if unknown:
        raise InvalidState(f"unknown keys {sorted(unknown)}; a backgammon state has points, bar, off, "
                           f"to_move and dice")
    x, o = [0] * 26, [0] * 26
    if "points" in state_json:
        points = state_json["points"]
        if not isinstance(points, list) or len(points) != 24:
            raise InvalidState("points is a list of 24 integers", field="state.points")
        for i, n in enumerate(points):
            if isinstance(n, list):
                raise InvalidState("a point holds checkers of one colour only: give a signed integer "
                                   "(positive X, negative O)", field=f"state.points[{i}]")
            if not isinstance(n, int) or isinstance(n, bool) or not -CHECKERS <= n <= CHECKERS:
                raise InvalidState(f"a point is an integer from -{CHECKERS} (O) to {CHECKERS} (X)",
                                   field=f"state.points[{i}]")
            if n > 0:
                x[i + 1] = n
            elif n < 0:
                o[24 - i] = -n
    else:
        x, o = list(START), list(START)
    x[BAR], o[BAR] = parse_pair(state_json, "bar")
    x[OFF], o[OFF] = parse_pair(state_json, "off")
    for name, side in (("X", x), ("O", o)):
        total = sum(side)
        if total != CHECKERS:
            raise InvalidState(f"{name} has {total} checkers on the points, the bar and off; each side has "
                               f"{CHECKERS}", field="state.points")
    if x[OFF] == CHECKERS and o[OFF] == CHECKERS:
        raise InvalidState("both sides cannot have borne off every checker", field="state.off")
    to_move = state_json.get("to_move", "X")
    if to_move not in PLAYERS:
        raise InvalidState("to_move is \"X\" or \"O\"", field="state.to_move")
    dice = state_json.get("dice")
    if dice is not None:
        if not isinstance(dice, list) or len(dice) != 2:
            raise InvalidState("dice is null or a pair [d1, d2]", field="state.dice")
        for i, d in enumerate(dice):
            if not isinstance(d, int) or isinstance(d, bool) or not 1 <= d <= 6:
                raise InvalidState("a die shows an integer from 1 to 6", field=f"state.dice[{i}]")
        dice = (max(dice), min(dice))
    return game, State(tuple(x), tuple(o), PLAYERS.index(to_move), dice)
