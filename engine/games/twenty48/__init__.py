"""2048 (Gabriele Cirulli's sliding-tile game) as a one-player game against chance.

The board is a 64-bit int of 4-bit tile exponents with table-driven slides and evaluation
(:mod:`engine.games.twenty48.board`); the game has a fast expectimax valuation of its own
(:mod:`engine.games.twenty48.kernel`).

A turn is two plies: the player slides the tiles (the move must change the board), then chance places a 2
or a 4 on an empty cell. The state in between, the afterstate, is a chance node; it is the board with bit
64 set. Its outcomes are ``(cell, tile)`` spawns, internally the int ``exponent << 4 * cell`` that is or-ed
into the board; in JSON ``{"cell": [row, col], "tile": 2}``. A board without a legal move is terminal.
"""
from functools import lru_cache

from engine.errors import AlgorithmMismatch, InvalidState
from engine.registry import EXPLICIT_CHANCE, GameOption, GameType, Player, player_ids
from engine.game import CHANCE, EVALUATION, Game
from engine.games.twenty48.board import (BOARD_MASK, CHANCE_FLAG, EVAL_BASE, EVAL_SCALE, MAX_EXPONENT,
                                         ROW_EMPTIES, ROW_HEURISTIC, ROW_MASK, move_down, move_left, move_right,
                                         move_up, row_cells, slide_points, transpose, utility_of)
from engine.games.twenty48.kernel import Kernel

GAME_ID = "2048"
MOVES = ("up", "down", "left", "right")
DEFAULT_TILES = {"2": 0.9, "4": 0.1}
# A state's score at most: a game that reached 2 ** 17, a tile no board of 16 cells can make, would score
# about 2 million.
MAX_SCORE = 2 ** 31 - 1

SLIDE = {"up": move_up, "down": move_down, "left": move_left, "right": move_right}
SLIDES = tuple(SLIDE[m] for m in MOVES)



MOVE_SCHEMA = {"oneOf": [
    {"type": "string", "enum": list(MOVES)},
    {"type": "object", "description": "a chance outcome: the tile that appears, and where",
     "required": ["cell", "tile"], "additionalProperties": False,
     "properties": {"cell": {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 3},
                             "minItems": 2, "maxItems": 2},
                    "tile": {"type": "integer", "minimum": 2, "maximum": 1 << MAX_EXPONENT}}}]}
TILE_PROBABILITIES = GameOption(
    name="tile_probabilities",
    schema={"type": "object", "minProperties": 1, "maxProperties": 16,
            "propertyNames": {"pattern": "^[1-9][0-9]{0,5}$"},
            "additionalProperties": {"type": "number", "minimum": 0, "maximum": 1}, "default": DEFAULT_TILES},
    description="the odds of the tile that appears after a move, {tile: probability} summing to 1 "
                "(default {\"2\": 0.9, \"4\": 0.1})")

PLAYER_INFO = (Player("player", "Player", "#776e65"),)

GAME_TYPE = GameType(
    id=GAME_ID,
    name="2048",
    description="Slide the tiles of a 4 x 4 grid up, down, left or right; two equal tiles that collide "
                "merge into their sum (each tile at most once per move). After every move a 2 (p 0.9) "
                "or a 4 (p 0.1) appears on a uniformly random empty cell; options.tile_probabilities "
                "(e.g. {\"2\": 0.9, \"4\": 0.1}) changes the odds. The game ends when no move changes "
                "the board. One player against chance.",
    state_format="{\"board\": [4 rows of 4 integers, top row first], \"to_move\"?: \"player\" | "
                 "\"chance\", \"score\"?: n}; a cell is 0 (empty) or a power of two from 2 to 32768. "
                 "to_move \"chance\" is the afterstate of a move, before the new tile appears (default "
                 "\"player\"). score is the game's score so far (default 0; each merge scores the tile it "
                 "makes), which apply carries forward; the search does not read it.",
    initial_state={"board": [[0, 0, 0, 0], [0, 2, 0, 0], [0, 0, 0, 0], [0, 0, 2, 0]]},
    move_format="\"up\" | \"down\" | \"left\" | \"right\"; at a chance state, the new tile: "
                "{\"cell\": [row, col], \"tile\": 2}",
    example_request={"game": "2048",
                     "state": {"board": [[2, 2, 0, 4], [0, 0, 0, 8], [0, 2, 0, 0], [0, 0, 0, 0]]},
                     "algorithm": {"name": "expectimax", "depth": 3}, "time_limit_ms": 1000},
    players=player_ids(PLAYER_INFO),
    player_info=PLAYER_INFO,
    conventions="The one player is \"player\"; at a chance state to_move is \"chance\", and its moves are the "
                "tiles that may appear, {\"cell\": [row, column] (0-based from the top left), \"tile\"}.",
    chance=EXPLICIT_CHANCE,
    zero_sum=False,
    alternating=False,
    outcomes=False,
    utility_bounds=(0.0, 1.0),
    max_length=None,
    key_fixes_ply=False,
    value_unit="a number in [0, 1]: at a finished board log2(sum of its tiles) / 40; at a depth cut-off the board heuristic, also in [0, 1] (expectimax); MCTS: the mean value of its playouts' finished boards, so the two are not comparable",
    value_scale="value",
    move_schema=MOVE_SCHEMA,
    options=(TILE_PROBABILITIES,),
    native_core=True,
    # At 100 ms a move, cutting the branches reached with a probability under 1% buys a ply in open
    # positions (bench/STRENGTH.md).
    auto_algorithm={"name": "expectimax", "probability_cutoff": 0.01},
    sample_states=({"board": [[2, 4, 8, 16], [32, 64, 128, 256], [512, 1024, 2, 4], [8, 16, 0, 2]]},
                   {"board": [[2, 2, 0, 4], [0, 0, 0, 8], [0, 2, 0, 0], [0, 0, 0, 0]], "to_move": "chance"}),
)


class Twenty48(Game):
    """2048 for one player. A state is the board int, with :data:`CHANCE_FLAG` set at an afterstate.

    Values lie in ``[0, 1]``: a live board evaluates to ``0.5 + 0.5 * h`` with ``h`` in ``[0, 1]`` the
    normalised heuristic (empty cells, merges, monotonicity of every row and column); a finished game is
    worth ``log2(tile sum) / 40`` < 0.5, so losing is worse than any live board, and a longer game (the tile
    sum grows by 2 or 4 a turn) is better than a shorter one.
    """

    id = GAME_ID
    game_type = GAME_TYPE
    capabilities = frozenset({EVALUATION})

    def __init__(self, tiles: tuple):
        self.tiles = tiles  # ((exponent, probability), ...) with probability > 0, by exponent

    def to_move(self, state):
        return CHANCE if state & CHANCE_FLAG else 0

    def actions(self, state):
        if state & CHANCE_FLAG:
            return [outcome for outcome, _ in self.chance_outcomes(state)]
        return [m for m, slide in zip(MOVES, SLIDES) if slide(state) != state]

    def result(self, state, move):
        if state & CHANCE_FLAG:
            return (state ^ CHANCE_FLAG) | move
        return SLIDE[move](state) | CHANCE_FLAG

    def chance_outcomes(self, state):
        """Every empty cell, row-major, with every tile that can appear, lowest first."""
        b = state & BOARD_MASK
        cells = [4 * r + c for r in range(4) for c in ROW_EMPTIES[b >> (16 * r) & ROW_MASK]]
        share = 1.0 / len(cells)
        return [(e << (4 * cell), p * share) for cell in cells for e, p in self.tiles]

    def is_terminal(self, state):
        if state & CHANCE_FLAG:
            return False
        if ROW_EMPTIES[state & ROW_MASK] or ROW_EMPTIES[state >> 16 & ROW_MASK] \
                or ROW_EMPTIES[state >> 32 & ROW_MASK] or ROW_EMPTIES[state >> 48 & ROW_MASK]:
            return False
        return move_left(state) == state and move_up(state) == state

    def utility(self, state, player=0):
        return utility_of(state & BOARD_MASK)

    def evaluate(self, state, player=0):
        if self.is_terminal(state):
            return self.utility(state)
        b = state & BOARD_MASK
        t = transpose(b)
        h = ROW_HEURISTIC
        return EVAL_BASE + EVAL_SCALE * (
            h[b & ROW_MASK] + h[b >> 16 & ROW_MASK] + h[b >> 32 & ROW_MASK] + h[b >> 48]
            + h[t & ROW_MASK] + h[t >> 16 & ROW_MASK] + h[t >> 32 & ROW_MASK] + h[t >> 48])

    def perspective(self, state):
        return 0

    def expectimax_kernel(self, deadline, cutoff, prize, capacity):
        """The game's own expectimax valuation (:class:`engine.search.expectimax.KernelGame`)."""
        return Kernel(self, deadline, cutoff, prize, capacity=capacity)

    def native_state(self, state) -> tuple:
        """The state as the compiled core reads it (native/src/bindings/twenty48.cpp): ``(board, chance,
        tiles)``, the board without the chance flag, whether it is an afterstate, and the spawn tiles."""
        return state & BOARD_MASK, bool(state & CHANCE_FLAG), self.tiles

    def from_native_move(self, move: int) -> str:
        """A player's move as the compiled core numbers it: its index in :data:`MOVES`."""
        return MOVES[move]

    # --- JSON ---

    def move_to_json(self, move):
        if isinstance(move, str):
            return move
        cell = (move.bit_length() - 1) // 4
        return {"cell": [cell // 4, cell % 4], "tile": 1 << (move >> (4 * cell))}

    def state_to_json(self, state):
        b = state & BOARD_MASK
        board = [[(1 << e) if e else 0 for e in row_cells(b >> (16 * r) & ROW_MASK)] for r in range(4)]
        return {"board": board, "to_move": "chance"} if state & CHANCE_FLAG else {"board": board}

    def child_to_json(self, state_json, move, child):
        """The state after ``move`` with the game's score carried forward: the request's ``score`` (0 if
        none) plus the points the slide scores (a new tile scores none)."""
        points = 0 if isinstance(move, int) else slide_points(parse_board(state_json["board"]), move)
        return {**self.state_to_json(child), "score": state_json.get("score", 0) + points}


@lru_cache(maxsize=64)
def game_for(tiles: tuple) -> Twenty48:
    return Twenty48(tiles)


def parse_tile_probabilities(value) -> tuple:
    """``{"2": 0.9, "4": 0.1}`` -> ``((1, 0.9), (2, 0.1))``: exponents with their positive probabilities."""
    field = "options.tile_probabilities"
    if not isinstance(value, dict) or not value:
        raise AlgorithmMismatch("tile_probabilities is a non-empty object {tile: probability}", field=field)
    tiles = []
    for key, p in value.items():
        tile = int(key) if isinstance(key, str) and key.isdigit() and key == str(int(key)) else 0
        if tile < 2 or tile & (tile - 1) or tile > 1 << MAX_EXPONENT:
            raise AlgorithmMismatch(f"{key!r} is not a tile: keys are powers of two from 2 to "
                                    f"{1 << MAX_EXPONENT}, as strings", field=field)
        if not isinstance(p, (int, float)) or isinstance(p, bool) or not 0.0 <= p <= 1.0:
            raise AlgorithmMismatch(f"the probability of tile {key} must be a number in [0, 1]", field=field)
        tiles.append((tile.bit_length() - 1, float(p)))
    total = sum(p for _, p in tiles)
    if abs(total - 1.0) > 1e-9:
        raise AlgorithmMismatch(f"the probabilities sum to {total!r}, not 1", field=field)
    return tuple(sorted((e, p) for e, p in tiles if p > 0.0))


def parse_board(board) -> int:
    if not isinstance(board, list) or len(board) != 4:
        raise InvalidState("board must be a list of 4 rows", field="state.board")
    b = 0
    for r, row in enumerate(board):
        if not isinstance(row, list) or len(row) != 4:
            raise InvalidState("a row is a list of 4 integers", field=f"state.board[{r}]")
        for c, tile in enumerate(row):
            if isinstance(tile, float) and tile.is_integer():  # JSON's 8.0 is the integer 8
                tile = int(tile)
            if not isinstance(tile, int) or isinstance(tile, bool) or (tile and (
                    tile < 2 or tile & (tile - 1) or tile > 1 << MAX_EXPONENT)):
                raise InvalidState(f"a cell is 0 or a power of two from 2 to {1 << MAX_EXPONENT}",
                                   field=f"state.board[{r}][{c}]")
            if tile:
                b |= (tile.bit_length() - 1) << (4 * (4 * r + c))
    return b


def parse_score(score) -> None:
    """Checks a state's ``score``: an integer from 0 to :data:`MAX_SCORE` (the search does not read it)."""
    if not isinstance(score, int) or isinstance(score, bool) or not 0 <= score <= MAX_SCORE:
        raise InvalidState(f"score is the game's score so far, an integer from 0 to {MAX_SCORE}", field="state.score")


def load(state_json, limits=None, tile_probabilities=None, **_):
    unknown = set(state_json) - {"board", "to_move", "score"}
    if unknown:
        raise InvalidState(f"unknown keys {sorted(unknown)}; a 2048 state has board, to_move and score")
    if "score" in state_json:
        parse_score(state_json["score"])
    if "board" not in state_json:
        raise InvalidState("a 2048 state needs a board", field="state.board")
    tiles = parse_tile_probabilities(DEFAULT_TILES if tile_probabilities is None else tile_probabilities)
    board = parse_board(state_json["board"])
    if not board:
        raise InvalidState("the board needs at least one tile", field="state.board")
    to_move = state_json.get("to_move", "player")
    if to_move not in ("player", "chance"):
        raise InvalidState("to_move is \"player\" or \"chance\"", field="state.to_move")
    if to_move == "chance":
        if not any(ROW_EMPTIES[board >> (16 * r) & ROW_MASK] for r in range(4)):
            raise InvalidState("at a chance state a new tile appears on an empty cell, and there is none",
                               field="state.board")
        board |= CHANCE_FLAG
    return game_for(tiles), board
