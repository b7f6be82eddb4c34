"""Go on boards of 2 x 2 to 19 x 19, under Tromp-Taylor's rules: area scoring with komi, suicide illegal,
positional superko (a play may not recreate any earlier position of the whole board), and the game over
after two passes in a row.

A state is the tuple ``(board, player, passes, seen, moves, captures, start)``, read by the index constants
``BOARD`` .. ``START``: the board (:mod:`engine.games.go.board`), the player to move (0 Black, 1 White), the
passes in a row just played, the boards of the game so far (a frozenset, the current one among them), the
move codes played from the start, the stones each colour has captured, and the :class:`~.load.Start`.
Equal states are the same game from the same start: ``key`` is the state itself.

Utilities are +1 / -1 by the count (0 for a tie, which a whole-number komi allows); the evaluation is an
influence count of the position (:func:`engine.games.go.scoring.estimate`), squashed into (-0.9, 0.9).
MCTS plays its random rollouts by the game's own policy (:mod:`engine.games.go.playout`), which never fills
its own eye, and reports the playouts' ownership of the points (:meth:`Go.playout_extras`). The compiled
core's default playouts are the same, draw for draw; its setting ``playout: "guided"`` (captures, escapes and
3x3 shapes about the last move, native/src/games/go.hpp) has no Python counterpart.
"""
from functools import lru_cache

from engine.errors import IllegalMove, InvalidState
from engine.game import EVALUATION, Game
from engine.games.go import load as reading, playout, scoring, sgf
from engine.games.go.board import BLACK, MAX_SIZE, MIN_SIZE, WHITE, neighbours, parse_vertex, play, rows, vertex
from engine.registry import NO_CHANCE, GameType, Player, player_ids

GAME_ID = "go"
COLOURS = ("B", "W")
STONES = (BLACK, WHITE)
PLAYER_INFO = (Player("B", "Black", "#111111"), Player("W", "White", "#fafafa"))
TWO_PASSES = "two passes in a row"

GAME_TYPE = GameType(
    id=GAME_ID,
    name="Go",
    description="Two players, Black and White, take turns placing a stone of their colour on an empty point "
                "of the board, or pass. A group of stones without an empty point next to it (a liberty) is "
                "captured. Tromp-Taylor rules: suicide is illegal, no play may recreate an earlier position "
                "(positional superko), two passes in a row end the game, and each side scores its stones "
                "plus the empty regions that reach its stones only; White adds the komi. Black moves first.",
    state_format="{\"size\": 2..19 (default 19), \"komi\": points for White (default 7.5), \"moves\": [GTP "
                 "vertices from the start, \"E5\" or \"pass\"], \"handicap\"?: black stones at GTP's fixed "
                 "places, \"setup\"?: {\"black\": [vertices], \"white\": [vertices]}}, or {\"sgf\": \"(;GM[1]SZ[9]"
                 "KM[7.5];B[ee];W[cc])\"}. Black moves first.",
    initial_state={"size": 19, "komi": 7.5, "moves": []},
    move_format="a GTP vertex: a column letter A-T without I, then the row counted from 1 at the bottom "
                "(\"E5\"), or \"pass\"",
    example_request={"game": "go", "state": {"size": 9, "komi": 7.5, "moves": ["E5", "C3"]},
                     "algorithm": {"name": "mcts"}, "time_limit_ms": 1000},
    players=player_ids(PLAYER_INFO),
    player_info=PLAYER_INFO,
    conventions="The players' ids are B (Black, first) and W (White); boards write black stones X and white "
                "O, the top row first. A move is a GTP vertex, column A-T without I and row 1 at the bottom; "
                "the engine's move code is row * size + column (row 0 the bottom), the pass size * size.",
    chance=NO_CHANCE,
    zero_sum=True,
    alternating=True,                 # a pass is a ply of its own: the players strictly alternate
    outcomes=True,
    utility_bounds=(-1.0, 1.0),
    max_length=None,                  # superko bounds a game, but not by any number worth writing
    key_fixes_ply=False,              # captures and passes: one position may come at different plies
    native_core=True,
    # MCTS with the game's playouts, which score by the rules' own count; without it auto would derive
    # alpha-beta on the influence count (a match of 4 games at 150 ms a move on 7 x 7: 2-2 between them).
    auto_algorithm={"name": "mcts"},
    history_field="moves",
    value_unit="MCTS: the mean playout utility in [-1, 1] (a win rate); other searches: an influence "
               "count of the position, squashed into (-0.9, 0.9), or +1/-1/0 for a finished game",
    value_scale="outcome",
    move_schema={"type": "string", "pattern": "^([A-HJ-Ta-hj-t]([1-9]|1[0-9])|[Pp][Aa][Ss][Ss])$"},
    sample_states=(
        {"size": 9, "komi": 7.5, "moves": ["E5", "C3", "G3", "C7", "G7", "E3"]},
        # A ko on 5 x 5: Black has just taken at C3, White may not take back at B3 at once.
        {"size": 5, "komi": 0.5, "moves": ["A3", "B3", "B4", "C4", "B2", "C2", "pass", "D3", "C3"]},
        {"size": 9, "komi": 6, "handicap": 2, "moves": ["pass", "E5"]},
        {"sgf": "(;GM[1]FF[4]SZ[7]KM[0.5];B[dd];W[cc];B[cd];W[dc])"},
    ),
)

# A state's fields, by index.
BOARD = 0      # bytes: the points (board.EMPTY, BLACK, WHITE)
PLAYER = 1     # the player to move: 0 Black, 1 White
PASSES = 2     # passes in a row just played: 2 ends the game
SEEN = 3       # frozenset of every board of the game so far, the current one included
MOVES = 4      # the move codes played from the start
CAPTURES = 5   # (stones Black captured, stones White captured)
START = 6      # the Start: size, komi, handicap, setup


def initial(start: reading.Start) -> tuple:
    """The state at ``start``: its stones placed, Black to move."""
    board = bytearray(start.size * start.size)
    for p in start.black:
        board[p] = BLACK
    for p in start.white:
        board[p] = WHITE
    frozen = bytes(board)
    return (frozen, 0, 0, frozenset((frozen,)), (), (0, 0), start)


class Go(Game):
    """Go under Tromp-Taylor's rules on a ``size`` board; see the module docstring. One instance a size
    (:func:`game_of`): a move code's vertex depends on it."""

    id = GAME_ID
    game_type = GAME_TYPE
    capabilities = frozenset({EVALUATION})

    def __init__(self, size: int):
        self.size, self.near, self.pass_move = size, neighbours(size), size * size
        scoring.edges(size), playout.diagonals(size)      # the size's tables, built before any search

    # --- the rules -------------------------------------------------------------------------------

    def to_move(self, state):
        return state[PLAYER]

    def actions(self, state):
        """The legal points in code order (A1, B1, ... along row 1, then row 2 ...), then the pass; none
        once the game is over."""
        if state[PASSES] >= 2:
            return []
        board, seen, near, colour = state[BOARD], state[SEEN], self.near, STONES[state[PLAYER]]
        legal = []
        for p, v in enumerate(board):
            if v:
                continue
            played = play(board, near, p, colour)
            if played is not None and played[0] not in seen:
                legal.append(p)
        legal.append(self.pass_move)
        return legal

    def result(self, state, move):
        board, player, passes, seen, moves, captures, start = state
        if move == self.pass_move:
            return (board, 1 - player, passes + 1, seen, moves + (move,), captures, start)
        after, taken = play(board, self.near, move, STONES[player])
        captures = (captures[0] + taken, captures[1]) if player == 0 else (captures[0], captures[1] + taken)
        return (after, 1 - player, 0, seen | {after}, moves + (move,), captures, start)

    def is_terminal(self, state):
        return state[PASSES] >= 2

    def utility(self, state, player):
        u = scoring.outcome(self.lead(state))
        return u if player == 0 else -u

    # --- knowledge for searches ------------------------------------------------------------------

    def evaluate(self, state, player):
        """An influence count of the position (:func:`scoring.estimate`); exact on terminal states."""
        if self.is_terminal(state):
            return self.utility(state, player)
        value = scoring.estimate(state[BOARD], self.size, state[START].komi)
        return value if player == 0 else -value

    def lead(self, state) -> float:
        """Black's margin by the count of the board as it stands, komi included."""
        return scoring.margin(state[BOARD], self.size, state[START].komi)

    def end_reason(self, state):
        return TWO_PASSES

    def result_extras(self, state):
        """``score``: the result as SGF writes it, ``"B+3.5"``, ``"W+0.5"`` or ``"0"``."""
        return {"score": scoring.result_text(self.lead(state))}

    def policy_playout(self, state, uniform, check, played=None):
        """The game's random playout (:func:`engine.games.go.playout.play_out`) from ``state``."""
        start = state[START]
        return playout.play_out(state[BOARD], start.size, start.komi, state[PLAYER], state[PASSES], uniform,
                                check, played)

    def playout_extras(self, state, owners):
        """``ownership``: each point's mean final owner over MCTS's playouts, -1 (White) to 1 (Black), in
        rows top first as ``board``; ``score_lead``: Black's mean final margin, komi included (the count is
        linear, so it is the ownership's sum less komi)."""
        size = self.size
        return {"ownership": [[round(owners[row * size + col], 3) for col in range(size)]
                              for row in range(size - 1, -1, -1)],
                "score_lead": round(sum(owners) - state[START].komi, 2)}

    def native_state(self, state):
        """The state as the compiled core reads it (native/src/games/go.hpp): ``(size, komi, black setup
        codes, white setup codes, move codes)``, the handicap's stones among the black ones."""
        start = state[START]
        return start.size, start.komi, start.black, start.white, state[MOVES]

    # --- JSON ------------------------------------------------------------------------------------

    def move_to_json(self, move):
        return vertex(move, self.size)

    def move_from_json(self, value, state):
        """The move code of vertex ``value`` if it is legal in ``state``; :class:`IllegalMove` saying why
        not: off the board, occupied, suicide, or a repetition (naming the earlier move it repeats)."""
        size = self.size
        if state[PASSES] >= 2:
            raise IllegalMove("the game is over (two passes in a row): no move can be played")
        try:
            move = parse_vertex(value, size)
        except ValueError as exc:
            raise IllegalMove(str(exc)) from None
        if move == size * size:
            return move
        name, board, mover = vertex(move, size), state[BOARD], COLOURS[state[PLAYER]]
        if board[move]:
            raise IllegalMove(f"{name} is occupied (by {'Black' if board[move] == BLACK else 'White'})")
        played = play(board, self.near, move, STONES[state[PLAYER]])
        if played is None:
            raise IllegalMove(f"{name} would be suicide for {mover}: its group would have no liberty and it "
                              "captures nothing")
        if played[0] in state[SEEN]:
            raise IllegalMove(f"{name} would recreate the position {self.repeated(state, played[0])}: "
                              "positional superko forbids it")
        return move

    def repeated(self, state, board: bytes) -> str:
        """Where ``board`` came in ``state``'s game, in words: at the start, or after which move."""
        s = initial(state[START])
        if s[BOARD] == board:
            return "at the start"
        for i, move in enumerate(state[MOVES]):
            s = self.result(s, move)
            if s[BOARD] == board:
                return f"after move {i + 1} ({vertex(move, self.size)} by {COLOURS[i % 2]})"
        raise AssertionError("a board of the game's seen set that no move made")

    def state_to_json(self, state):
        start = state[START]
        out = {"size": start.size, "komi": start.komi, "moves": [vertex(m, start.size) for m in state[MOVES]]}
        if start.handicap:
            out["handicap"] = start.handicap
        if start.setup_black or start.setup_white:
            out["setup"] = {"black": [vertex(p, start.size) for p in start.setup_black],
                            "white": [vertex(p, start.size) for p in start.setup_white]}
        return out

    def child_to_json(self, state_json, move, child):
        """An ``sgf`` state answers the SGF with the move added; any other the moves form."""
        if "sgf" in state_json:
            return {"sgf": self.sgf(child)}
        return self.state_to_json(child)

    def sgf(self, state) -> str:
        """The game so far in SGF, with its result once it is over."""
        start = state[START]
        return sgf.write(start.size, start.komi, start.handicap, start.black, start.white, state[MOVES],
                         result=scoring.result_text(self.lead(state)) if self.is_terminal(state) else None)

    def position_extras(self, state):
        """``board`` (rows top first: X black, O white, . empty), ``captures`` (stones each colour has
        taken) and ``sgf``, the game so far."""
        start = state[START]
        return {"board": rows(state[BOARD], start.size),
                "captures": {"B": state[CAPTURES][0], "W": state[CAPTURES][1]},
                "sgf": self.sgf(state)}

    def move_extras(self, state, move):
        """A search's answer carries the searched position as the rules routes do (:meth:`position_extras`)."""
        return self.position_extras(state)


@lru_cache(maxsize=None)
def game_of(size: int) -> Go:
    """The game on a ``size`` board (one instance a size)."""
    return Go(size)


for _size in range(MIN_SIZE, MAX_SIZE + 1):   # every size's game and tables on import (a server preloads games)
    game_of(_size)



def load(state_json, limits=None, **_):
    """``(game, state)`` from a Go state (:func:`engine.games.go.load.parse`), its moves replayed and each
    checked; :class:`InvalidState` names the field at fault (``state.moves[3]``)."""
    start, moves = reading.parse(state_json)
    game, state = game_of(start.size), initial(start)
    for i, (field, value) in enumerate(moves):
        try:
            move = game.move_from_json(value, state)
        except IllegalMove as exc:
            message = exc.errors["move"][0]
            raise InvalidState(message if field != "state.sgf" else f"move {i + 1}: {message}", field=field) from None
        state = game.result(state, move)
    return game, state

