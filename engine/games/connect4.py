"""Connect Four on bitboards, after Pascal Pons' solver (blog.gamesolver.org).

The 7 x 6 board is an int of 7 columns x 7 bits: cell (column c, row r from the bottom) is bit ``7 * c + r``;
the seventh bit of every column stays empty, so that shifting a line of stones never carries into the next
column. A state is the tuple ``(current, mask, ply, status)``: the stones of the player to move, all stones,
the number of stones (X moves at even plies) and the status, computed once when a move is made: ongoing,
won by the player who just moved, or drawn. So ``to_move``, ``is_terminal`` and ``utility`` are a tuple
lookup, and ``result`` tests only whether the mover's stones now hold four in a row.

Playing column ``c`` is ``mask | (mask + bottom(c))``: adding the column's bottom bit carries up through the
column's stones into its first empty cell. The cells where a player would complete four (their "winning
positions", Pons' threats) come from a handful of shifts, which makes ``immediate_win``, forced blocks and
threat-counting move ordering cheap.
"""
from operator import itemgetter

from engine.errors import InvalidState
from engine.game import Game

GAME_ID = "connect4"
WIDTH, HEIGHT = 7, 6
H1 = HEIGHT + 1                                               # bits per column, with the empty sentinel
CELLS = WIDTH * HEIGHT
BOTTOM = sum(1 << (H1 * c) for c in range(WIDTH))             # the bottom cell of every column
BOARD = BOTTOM * ((1 << HEIGHT) - 1)                          # every playable cell
COLUMN = [((1 << HEIGHT) - 1) << (H1 * c) for c in range(WIDTH)]
TOP = [1 << (HEIGHT - 1 + H1 * c) for c in range(WIDTH)]      # the top cell of every column
CENTRE_FIRST = (3, 2, 4, 1, 5, 0, 6)
ODD_ROWS = BOTTOM * 0b010101                                  # rows 1, 3, 5 counting from 1 at the bottom
EVEN_ROWS = BOTTOM * 0b101010
ONGOING, WON, DRAWN = 0, 1, 2                                 # WON: by the player who just moved

DESCRIPTION = {
    "name": "Connect Four",
    "description": "Two players take turns dropping a stone into one of seven columns of a 6-row grid; it "
                   "falls to the lowest empty cell. The first to get four stones in a row (horizontally, "
                   "vertically or diagonally) wins; a full board is a draw. X moves first.",
    "players": ["X", "O"],
    "state_format": "{\"board\": [six strings of seven characters 'X', 'O' or '.', top row first]} or "
                    "{\"moves\": \"4453\"} (the columns 1..7 played from the empty board); exactly one of the "
                    "two. The player to move follows from the counts.",
    "initial_state": {"moves": ""},
    "move_format": "the 0-based column index, 0..6",
    "algorithms": ["minimax", "alphabeta", "expectimax", "maxn", "mcts"],
    "example_request": {"game": "connect4", "state": {"moves": "4453"},
                        "algorithm": {"name": "alphabeta", "depth": 8}, "time_limit_ms": 1000,
                        "trace": False},
}


def four_in_a_row(stones: int) -> bool:
    """Whether ``stones`` (one player's bitboard) hold four in a row in any direction."""
    for shift in (1, H1, H1 - 1, H1 + 1):                     # vertical, horizontal, both diagonals
        pairs = stones & (stones >> shift)
        if pairs & (pairs >> 2 * shift):
            return True
    return False


def winning_cells(stones: int, mask: int) -> int:
    """The empty cells (playable now or later) where ``stones`` would complete four in a row: for each
    direction, a cell with three own stones after it, before it, or around it."""
    r = (stones << 1) & (stones << 2) & (stones << 3)         # vertical: three below
    for shift in (H1, H1 - 1, H1 + 1):
        pair = (stones << shift) & (stones << 2 * shift)
        r |= pair & (stones << 3 * shift)
        r |= pair & (stones >> shift)
        pair = (stones >> shift) & (stones >> 2 * shift)
        r |= pair & (stones << shift)
        r |= pair & (stones >> 3 * shift)
    return r & (BOARD ^ mask)


def column_of(bit: int) -> int:
    """The column of a one-bit board."""
    return (bit.bit_length() - 1) // H1


class Connect4(Game):
    """Connect Four. Utilities: +1 for a win, -1 for a loss, 0 for a draw."""

    id = GAME_ID
    players = ("X", "O")
    outcome_game = True
    zero_sum = True
    utility_bounds = (-1.0, 1.0)

    # --- the rules -------------------------------------------------------------------------------

    def to_move(self, state):
        return state[2] & 1

    def actions(self, state):
        mask = state[1]
        return [c for c in range(WIDTH) if not mask & TOP[c]]

    def result(self, state, column):
        current, mask, ply, _ = state
        mask |= mask + (1 << H1 * column)
        mover = current ^ state[1] ^ mask                     # the mover's stones, the new one included
        if four_in_a_row(mover):
            status = WON
        else:
            status = DRAWN if ply + 1 == CELLS else ONGOING
        return (mover ^ mask, mask, ply + 1, status)

    def is_terminal(self, state):
        return state[3] != ONGOING

    def utility(self, state, player):
        if state[3] == WON:                                   # the player who made the last move won
            return 1.0 if player == (state[2] - 1) & 1 else -1.0
        return 0.0

    # --- knowledge for searches ------------------------------------------------------------------

    def immediate_win(self, state):
        """A column where the player to move completes four at once, or None."""
        current, mask = state[0], state[1]
        wins = winning_cells(current, mask) & (mask + BOTTOM) & BOARD
        return column_of(wins & -wins) if wins else None

    def ordered_actions(self, state):
        """Every legal column, best first: the safe ones (see :meth:`safe_actions`), then the others,
        which hand the opponent a win, centre first."""
        safe = self.safe_actions(state)
        mask = state[1]
        return safe + [c for c in CENTRE_FIRST if not mask & TOP[c] and c not in safe]

    def safe_actions(self, state):
        """The columns after which the opponent cannot win at once, most threats created first (Pons'
        move score: the cells where the mover would then complete four), ties centre first. When the
        opponent threatens to win, only a block can be safe, and with two threats nothing is; a stone
        right below an opponent's winning cell is never safe."""
        current, mask = state[0], state[1]
        playable = (mask + BOTTOM) & BOARD
        opponent_wins = winning_cells(current ^ mask, mask)
        forced = playable & opponent_wins
        if forced:
            if forced & (forced - 1):
                return []
            playable = forced
        safe = playable & ~(opponent_wins >> 1)
        scored = []
        for c in CENTRE_FIRST:
            move = safe & COLUMN[c]
            if move:
                scored.append((winning_cells(current | move, mask).bit_count(), c))
        scored.sort(key=itemgetter(0), reverse=True)          # stable: ties stay centre first
        return [c for _, c in scored]

    def key(self, state):
        """Pons' key ``current + mask``: adding the mask puts one bit above each column's stones, so the
        key encodes both boards; the player to move follows from the number of stones."""
        return state[0] + state[1]

    def plies_bound(self, state):
        """The empty cells: no game lasts longer."""
        return CELLS - state[2]

    def evaluate(self, state, player):
        """For depth-limited play: open threats (cells where a player would complete four) weigh 4, a
        threat on the player's parity row (odd rows from the bottom for X, even for O, the rows a player
        can usually claim in the end game) weighs 3 more, and every stone in the centre column 1; the sum
        is squashed into (-1, 1). Exact on terminal states."""
        current, mask, ply, status = state
        if status != ONGOING:
            return self.utility(state, player)
        mover = ply & 1
        scores = []
        for stones, side in ((current, mover), (current ^ mask, 1 - mover)):
            threats = winning_cells(stones, mask)
            parity_rows = ODD_ROWS if side == 0 else EVEN_ROWS   # rows 1, 3, 5 (counting from 1) for X
            scores.append(4 * threats.bit_count() + 3 * (threats & parity_rows).bit_count()
                          + (stones & COLUMN[3]).bit_count())
        score = scores[0] - scores[1]                         # for the player to move
        value = score / (abs(score) + 32)
        return value if player == mover else -value

    # --- JSON ------------------------------------------------------------------------------------

    def state_to_json(self, state):
        current, mask, ply, _ = state
        x = current if ply & 1 == 0 else current ^ mask
        rows = []
        for r in reversed(range(HEIGHT)):
            rows.append("".join("." if not mask >> (H1 * c + r) & 1 else "X" if x >> (H1 * c + r) & 1 else "O"
                                for c in range(WIDTH)))
        return {"board": rows}


GAME = Connect4()


def initial_state():
    """The empty board, X to move."""
    return (0, 0, 0, ONGOING)


def state_from_boards(x: int, o: int):
    """The state with X's and O's stones, assumed legal; the status from the stones."""
    mask = x | o
    ply = mask.bit_count()
    current = x if ply & 1 == 0 else o
    if four_in_a_row(x) or four_in_a_row(o):
        status = WON
    else:
        status = DRAWN if ply == CELLS else ONGOING
    return (current, mask, ply, status)


def load(state_json, limits=None, **_):
    """``(game, state)`` from ``{"board": [...]}`` or ``{"moves": "4453"}``; :class:`InvalidState` names
    the field at fault."""
    unknown = set(state_json) - {"board", "moves"}
    if unknown:
        raise InvalidState(f"unknown keys {sorted(unknown)}; a connect4 state has board or moves")
    if ("board" in state_json) == ("moves" in state_json):
        raise InvalidState("give exactly one of board and moves")
    if "moves" in state_json:
        return GAME, parse_moves(state_json["moves"])
    return GAME, parse_board(state_json["board"])


def parse_moves(moves):
    """Replay ``moves`` (columns 1..7) from the empty board."""
    field = "state.moves"
    if not isinstance(moves, str):
        raise InvalidState("moves is a string of column digits 1..7, e.g. \"4453\"", field=field)
    if len(moves) > CELLS:
        raise InvalidState(f"a game has at most {CELLS} moves; got {len(moves)}", field=field)
    state = initial_state()
    for i, ch in enumerate(moves):
        if ch not in "1234567":
            raise InvalidState(f"move {i + 1} is {ch!r}; columns are the digits 1..7", field=field)
        if state[3] != ONGOING:
            raise InvalidState(f"the game is over after move {i}; move {i + 1} ({ch}) cannot be played",
                               field=field)
        column = int(ch) - 1
        if state[1] & TOP[column]:
            raise InvalidState(f"move {i + 1} plays column {ch}, which is full", field=field)
        state = GAME.result(state, column)
    return state


def parse_board(board):
    """Check the shape, the characters, gravity, the counts and the winner of a board."""
    if not isinstance(board, list) or len(board) != HEIGHT:
        raise InvalidState(f"board is a list of {HEIGHT} strings, top row first", field="state.board")
    x = o = 0
    for i, row in enumerate(board):
        field = f"state.board[{i}]"
        if not isinstance(row, str) or len(row) != WIDTH:
            raise InvalidState(f"every row is a string of {WIDTH} characters", field=field)
        if set(row) - set("XO."):
            raise InvalidState("cells are 'X', 'O' or '.'", field=field)
        r = HEIGHT - 1 - i                                    # rows count from the bottom in the bitboard
        for c, ch in enumerate(row):
            if ch == "X":
                x |= 1 << (H1 * c + r)
            elif ch == "O":
                o |= 1 << (H1 * c + r)
    mask = x | o
    if mask & ~(mask << 1) & ~BOTTOM:                         # a stone with an empty cell below it
        floating = sorted({c + 1 for c in range(WIDTH) if mask & ~(mask << 1) & ~BOTTOM & COLUMN[c]})
        raise InvalidState(f"stones cannot float: column(s) {floating} have an empty cell below a stone",
                           field="state.board")
    nx, no = x.bit_count(), o.bit_count()
    if nx not in (no, no + 1):
        raise InvalidState(f"X moves first, so X has as many stones as O or one more; got X {nx}, O {no}",
                           field="state.board")
    x_won, o_won = four_in_a_row(x), four_in_a_row(o)
    if x_won and o_won:
        raise InvalidState("both players have four in a row", field="state.board")
    if x_won or o_won:
        winner, last_mover = (x, "X") if x_won else (o, "O")
        if (last_mover == "X") != (nx == no + 1):
            raise InvalidState(f"{last_mover} has four in a row, so {last_mover} made the last move; the "
                               f"counts say otherwise (X {nx}, O {no})", field="state.board")
        if not any(winner & top and not four_in_a_row(winner ^ top) for top in top_stones(mask)):
            raise InvalidState(f"{last_mover} has four in a row that no single last move completes: the "
                               "game was already over", field="state.board")
    return state_from_boards(x, o)


def top_stones(mask: int) -> list:
    """The highest stone of every non-empty column, as one-bit boards."""
    tops = []
    for c in range(WIDTH):
        column = mask & COLUMN[c]
        if column:
            tops.append(1 << (column.bit_length() - 1))
    return tops
