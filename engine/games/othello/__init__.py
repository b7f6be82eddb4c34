"""Othello (Reversi) on an 8 x 8 board, on bitboards (:mod:`engine.games.othello.board`).

A state is the tuple ``(me, them, player, legal, over, key)``, read by the index constants ``ME`` .. ``KEY``:
the discs of the player to move and of the other, the player to move (0 black, 1 white), the legal squares
of the player to move, whether the game is over (neither player can move) and the position's key for
transposition tables. All of it is computed when the state is made, so ``to_move``, ``actions``,
``is_terminal`` and ``key`` are tuple lookups.

A player without a legal move passes: ``PASS`` is then the only action, a ply of its own, so the players
strictly alternate (the type declares ``alternating``). A pass adds no disc, so the key does not fix the
number of plies played (``key_fixes_ply`` is false: the exact win/draw/loss solver, whose table relies on
it, does not run on Othello; the principal-variation search stores scores relative to the node and does).

Utilities are win/draw/loss (+1, 0, -1) by disc count, so that alpha-beta and MCTS prove results. The
endgame solver (:mod:`engine.games.othello.endgame`) scores the final disc difference instead, empty
squares going to the winner: a position it solves reports that difference as its value.
"""
from engine.errors import IllegalMove, InvalidState
from engine.game import (ENDGAME_SOLVER, EVALUATION, HASHING, MOVE_ORDERING, PLIES_BOUND, Game)
from engine.games.othello.board import (CENTRE, FULL, PASS, START_BLACK, START_WHITE, flips, legal_moves,
                                        squares)
from engine.games.othello.evaluation import SQUARE_WEIGHTS, evaluate_for_mover
from engine.games.othello import endgame, patterns
from engine.registry import NO_CHANCE, GameOption, GameType, Player, chosen_evaluation, player_ids

GAME_ID = "othello"
COLUMNS, ROWS = "abcdefgh", "12345678"
COLOURS = ("B", "W")
NAMES = [COLUMNS[s % 8] + ROWS[s // 8] for s in range(64)] + ["pass"]
SQUARE_OF = {name: s for s, name in enumerate(NAMES)}
SQUARE_WEIGHT_DESCENDING = [-w for w in SQUARE_WEIGHTS].__getitem__   # a sort key: heavier squares first

PLAYER_INFO = (Player("B", "Black", "#111111"), Player("W", "White", "#fafafa"))
CLASSIC, PATTERNS = "classic", "patterns"      # the evaluations (the ``evaluation`` option); CLASSIC the default
EVALUATION_OPTION = GameOption(
    name="evaluation",
    schema={"type": "string", "enum": [CLASSIC, PATTERNS], "default": CLASSIC},
    description="the evaluation at the search's horizon: \"classic\" (default: mobility, potential mobility, "
                "corners, stability, parity and discs, hand-weighted by phase) or \"patterns\" (pattern tables "
                "as LOGISTELLO's and Edax's, fitted by the learning pipeline to positions the endgame solver "
                "labelled: engine/games/othello/othello_patterns.txt); both cores, the same values. Either is "
                "an estimate in (-1, 1); \"patterns\" is d / (|d| + 32), d its estimated final disc difference")

GAME_TYPE = GameType(
    id=GAME_ID,
    name="Othello",
    description="Two players, Black and White, take turns placing a disc of their colour on an 8 x 8 "
                "board so that it brackets, in at least one of the eight directions, a line of the "
                "opponent's discs, which turn over. A player without such a square passes; the game ends "
                "when neither player can move, and the player with more discs wins. Black moves first.",
    state_format="{\"board\": [8 strings of 8 characters 'B', 'W' or '.', row 1 (the top) first], "
                 "\"to_move\": \"B\" or \"W\"}. Without board: the standard start (d4 and e5 white, e4 and "
                 "d5 black), Black to move.",
    initial_state={"board": ["........", "........", "........", "...WB...", "...BW...", "........",
                             "........", "........"], "to_move": "B"},
    move_format="a square, column a-h then row 1-8 counted from the top (\"d3\"), or \"pass\" when and only "
                "when the player to move has no legal square",
    example_request={"game": "othello", "state": {"to_move": "B"},
                     "algorithm": {"name": "alphabeta", "depth": 4}, "time_limit_ms": 1000},
    players=player_ids(PLAYER_INFO),
    player_info=PLAYER_INFO,
    conventions="The players' ids are the board's letters, B (Black, first) and W (White). A move is a "
                "square, column a-h then row 1-8 counted from the top (\"d3\"), or \"pass\".",
    chance=NO_CHANCE,
    zero_sum=True,
    alternating=True,                 # a pass is a ply of its own: the players strictly alternate
    outcomes=True,
    utility_bounds=(-1.0, 1.0),
    max_length=120,                   # 60 discs, and at most one pass before each
    key_fixes_ply=False,              # a pass adds no disc: one position may come at different plies
    native_core=True,
    options=(EVALUATION_OPTION,),
    value_unit="a solved position (outcome not null): the final disc difference with perfect play, -64..64; otherwise a heuristic estimate in (-1, 1) (MCTS: the mean playout utility), or +1/-1/0 when the winner was proven but not the score",
    value_scale="outcome",
    move_schema={"type": "string", "pattern": "^([a-h][1-8]|pass)$"},
    sample_states=(
        # The middle game (random play, 40 empty squares).
        {"board": [".......B", "......B.", ".BBBBB..", "..WBBB..", "WWWWBW..", "..WWWB..", "...BB...",
                   "...B...."], "to_move": "B"},
        # Black has no square: "pass", then White has g8 and h8 (passes again below).
        {"board": ["WWWWWWWW", "WWWWWWWW", "WWWWWWWW", "WWWWWWWW", "WWWWWWWW", "WWWWWWWW", "WWWWWWBB",
                   "WWWWWW.."], "to_move": "B"},
        # An endgame with 12 empty squares, within the endgame solver's reach.
        {"board": [".BBB..W.", "BBBBBWWB", "..WBWWWB", "WWWWBBWB", "WWWBBBWW", "WWWWWWB.", ".WWWWWWB",
                   "..W.B.BW"], "to_move": "B"},
    ),
)


def outcome(me: int, them: int) -> float:
    """The result by disc count for the side with discs ``me``: +1 more, -1 fewer, 0 as many."""
    mine, theirs = me.bit_count(), them.bit_count()
    return 1.0 if mine > theirs else -1.0 if mine < theirs else 0.0


# A state's fields, by index. A plain tuple rather than a named one: a named tuple's constructor made
# fixed-depth searches 7% slower (bench/RESULTS.md).
ME = 0                  # the discs of the player to move
THEM = 1                # the discs of the other player
PLAYER = 2              # the player to move: 0 black, 1 white
LEGAL = 3               # the legal squares of the player to move
OVER = 4                # neither player can move
KEY = 5                 # the transposition tables' key


def make_state(me: int, them: int, player: int) -> tuple:
    """The state with ``player`` to move, with discs ``me`` against ``them``."""
    legal = legal_moves(me, them)
    over = not legal and not legal_moves(them, me)
    return (me, them, player, legal, over, (me << 64 | them) << 1 | player)


class Othello(Game):
    """Othello. Utilities: +1 for more discs at the end, -1 for fewer, 0 for as many. The evaluation is
    the classic one, or with ``evaluation="patterns"`` the learned pattern tables."""

    id = GAME_ID
    game_type = GAME_TYPE
    capabilities = frozenset({EVALUATION, MOVE_ORDERING, HASHING, PLIES_BOUND, ENDGAME_SOLVER})

    def __init__(self, evaluation: str = CLASSIC):
        self.evaluation = evaluation

    # --- the rules -------------------------------------------------------------------------------

    def to_move(self, state):
        return state[PLAYER]

    def actions(self, state):
        """The legal squares in natural order (a1, b1, ..., h8), or ``[PASS]``, or none at the end."""
        if state[LEGAL]:
            return squares(state[LEGAL])
        return [] if state[OVER] else [PASS]

    def result(self, state, move):
        me, them, player = state[ME], state[THEM], state[PLAYER]
        if move == PASS:
            return make_state(them, me, 1 - player)
        flipped = flips(me, them, move)
        return make_state(them ^ flipped, me | flipped | 1 << move, 1 - player)

    def is_terminal(self, state):
        return state[OVER]

    def utility(self, state, player):
        u = outcome(state[ME], state[THEM])
        return u if player == state[PLAYER] else -u

    # --- knowledge for searches ------------------------------------------------------------------

    def evaluate(self, state, player):
        """See :func:`engine.games.othello.evaluation.evaluate_for_mover` (or, valued by the patterns,
        :func:`engine.games.othello.patterns.evaluate_for_mover`); exact on terminal states."""
        if state[OVER]:
            return self.utility(state, player)
        if self.evaluation == PATTERNS:
            value = patterns.evaluate_for_mover(patterns.committed(), state[ME], state[THEM], state[LEGAL])
        else:
            value = evaluate_for_mover(state[ME], state[THEM], state[LEGAL])
        return value if player == state[PLAYER] else -value

    def ordered_actions(self, state):
        """The legal squares, best first by their static weight (corners first, the X-squares diagonal to
        them last), ties in natural order. Ordering by the opponent's mobility after each move (as the
        endgame solver does) searched as many nodes to a given depth in the middle game, at twice the
        time."""
        legal = state[LEGAL]
        if not legal:
            return self.actions(state)
        return sorted(squares(legal), key=SQUARE_WEIGHT_DESCENDING)

    def key(self, state):
        return state[KEY]

    def plies_bound(self, state):
        """Each empty square takes at most one disc, and at most one pass comes before each."""
        return 0 if state[OVER] else 2 * (FULL ^ (state[ME] | state[THEM])).bit_count()

    def random_playout(self, state, uniform):
        """Uniformly random moves to the end, as ``actions`` and ``result`` would play them: the
        ``k``-th legal square counting from a1, or a pass when there is none."""
        me, them, legal, over = state[ME], state[THEM], state[LEGAL], state[OVER]
        plies = 0
        while not over:
            if legal:
                pick = legal
                for _ in range(int(uniform() * legal.bit_count())):
                    pick &= pick - 1
                bit = pick & -pick
                flipped = flips(me, them, bit.bit_length() - 1)
                me, them = them ^ flipped, me | flipped | bit
            else:
                me, them = them, me
            plies += 1
            legal = legal_moves(me, them)
            over = not legal and not legal_moves(them, me)
        u = outcome(me, them)
        mover = state[PLAYER] ^ (plies & 1)                   # the player to move at the end
        return ((u, -u) if mover == 0 else (-u, u)), plies

    def solve_endgame(self, state, deadline, ordering, tt_capacity, stats):
        """The final disc difference with perfect play, when few enough squares are empty; see
        :func:`engine.games.othello.endgame.solve`."""
        return endgame.solve(state[ME], state[THEM], deadline, ordering, tt_capacity, stats)

    def native_state(self, state):
        """The state as the compiled core reads it (native/src/bindings/othello.cpp): ``(me, them, player)``;
        the core derives the rest; fourth, the evaluation's name when it is not the default."""
        triple = state[ME], state[THEM], state[PLAYER]
        return triple if self.evaluation == CLASSIC else (*triple, self.evaluation)

    # --- JSON ------------------------------------------------------------------------------------

    def move_to_json(self, move):
        return NAMES[move]

    def move_from_json(self, value, state):
        if not isinstance(value, str) or value not in SQUARE_OF:
            raise IllegalMove(f"{value!r} is not a move: a move is a square \"a1\"..\"h8\" (column, then row "
                              "from the top) or \"pass\"")
        move = SQUARE_OF[value]
        if state[OVER]:
            raise IllegalMove("the game is over: no move can be played")
        if move == PASS:
            if state[LEGAL]:
                raise IllegalMove(f"{COLOURS[state[PLAYER]]} may not pass while a move exists: legal "
                                  f"{[NAMES[s] for s in squares(state[LEGAL])]}")
            return PASS
        if not state[LEGAL] >> move & 1:
            legal = [NAMES[s] for s in squares(state[LEGAL])] or ["pass"]
            raise IllegalMove(f"{value} is not a legal move for {COLOURS[state[PLAYER]]} here; legal: {legal}")
        return move

    def state_to_json(self, state):
        me, them, player = state[ME], state[THEM], state[PLAYER]
        black, white = (me, them) if player == 0 else (them, me)
        rows = ["".join("B" if black >> (8 * r + c) & 1 else "W" if white >> (8 * r + c) & 1 else "."
                        for c in range(8)) for r in range(8)]
        return {"board": rows, "to_move": COLOURS[player]}


GAME = Othello()
GAMES = {CLASSIC: GAME, PATTERNS: Othello(PATTERNS)}   # the game of each evaluation (the tables read on first use)


def initial_state():
    """The standard start, Black to move."""
    return make_state(START_BLACK, START_WHITE, 0)


def game_for(evaluation) -> Othello:
    """The game valued by the ``evaluation`` option; :class:`InvalidState` on ``options.evaluation`` for
    another value."""
    return chosen_evaluation(GAMES, CLASSIC, evaluation)


def load(state_json, limits=None, evaluation=None, **_):
    """``(game, state)`` from ``{"board": [...], "to_move": "B"|"W"}`` (without board: the standard start),
    under the ``evaluation`` option; :class:`InvalidState` names the field at fault."""
    game = game_for(evaluation)
    unknown = set(state_json) - {"board", "to_move"}
    if unknown:
        raise InvalidState(f"unknown keys {sorted(unknown)}; an othello state has board and to_move")
    to_move = state_json.get("to_move")
    if "board" not in state_json:
        if "to_move" in state_json and to_move != "B":    # absent, it is Black's move; null is no colour
            raise InvalidState("without a board the game is at the standard start, where Black (\"B\") moves",
                               field="state.to_move")
        return game, initial_state()
    if to_move not in COLOURS:
        raise InvalidState("to_move is \"B\" or \"W\" (required with a board)", field="state.to_move")
    black, white = parse_board(state_json["board"])
    player = COLOURS.index(to_move)
    me, them = (black, white) if player == 0 else (white, black)
    return game, make_state(me, them, player)


def parse_board(board) -> tuple:
    """``(black, white)`` bitboards of a board of 8 strings of 8 ``B``/``W``/``.``, checked: some disc on
    the board and the four centre squares filled (they are at the start, and discs are never removed)."""
    if not isinstance(board, list) or len(board) != 8:
        raise InvalidState("board is a list of 8 strings, row 1 (the top) first", field="state.board")
    black = white = 0
    for r, row in enumerate(board):
        field = f"state.board[{r}]"
        if not isinstance(row, str) or len(row) != 8:
            raise InvalidState("every row is a string of 8 characters", field=field)
        if set(row) - set("BW."):
            raise InvalidState("cells are 'B', 'W' or '.'", field=field)
        for c, ch in enumerate(row):
            if ch == "B":
                black |= 1 << (8 * r + c)
            elif ch == "W":
                white |= 1 << (8 * r + c)
    if not black | white:
        raise InvalidState("the board has no discs at all; the game starts with four", field="state.board")
    if (black | white) & CENTRE != CENTRE:
        raise InvalidState("the four centre squares d4, e4, d5, e5 hold discs from the start and are never "
                           "emptied", field="state.board")
    return black, white
