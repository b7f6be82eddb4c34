"""Connect Four on bitboards, after Pascal Pons' solver (blog.gamesolver.org).

The 7 x 6 board is an int of 7 columns x 7 bits: cell (column c, row r from the bottom) is bit ``7 * c + r``;
the seventh bit of every column stays empty, so that shifting a line of stones never carries into the next
column. Playing column ``c`` is ``mask | (mask + bottom(c))``: adding the column's bottom bit carries up
through the column's stones into its first empty cell.

A player's "winning cells" (Pons' winning positions, threats) are the empty cells where they would complete
four in a row; a handful of shifts find them all. A state is the tuple ``(current, mask, ply, status, mine,
theirs, key)``, read by the index constants ``CURRENT`` .. ``KEY``: the stones of the player to move, all
stones, the number of stones (X moves at even plies), the status (ongoing, won by the player who just moved,
or drawn), the winning cells of the player to move and of the other player, and the position's key for
transposition tables (see ``Connect4.key``). All of it is computed once, when the move is made: the move
wins if it fills one of the mover's winning cells, the opponent's winning cells only lose the cell just
filled, and only the mover's need recomputing. So ``to_move``, ``is_terminal``, ``utility`` and
``immediate_win`` are a few operations, and the threat-based move ordering costs one winning-cell
computation per candidate move, which is also the child's.
"""
from operator import itemgetter

from engine.errors import InvalidState
from engine.registry import NO_CHANCE, GameType, Player, player_ids
from engine.game import (EVALUATION, HASHING, IMMEDIATE_WIN, MOVE_ORDERING, OUTCOME_BOUNDS, PLIES_BOUND,
                         SAFE_CHILDREN, Game)

GAME_ID = "connect4"
WIDTH, HEIGHT = 7, 6
H1 = HEIGHT + 1                                               # bits per column, with the empty sentinel
CELLS = WIDTH * HEIGHT
BOTTOM = sum(1 << (H1 * c) for c in range(WIDTH))             # the bottom cell of every column
BOARD = BOTTOM * ((1 << HEIGHT) - 1)                          # every playable cell
COLUMN = [((1 << HEIGHT) - 1) << (H1 * c) for c in range(WIDTH)]
TOP = [1 << (HEIGHT - 1 + H1 * c) for c in range(WIDTH)]      # the top cell of every column
CENTRE_FIRST = (3, 2, 4, 1, 5, 0, 6)
DIGITS = "1234567"                                            # the columns in a moves string (Pons'), 0..6
ODD_ROWS = BOTTOM * 0b010101                                  # rows 1, 3, 5 counting from 1 at the bottom
EVEN_ROWS = BOTTOM * 0b101010
ABOVE_BOARD = BOTTOM << HEIGHT                                # the empty sentinel cell above every column
# The columns of a set of cells at most one per column, centre first, looked up by the cells plus BOARD
# masked with ABOVE_BOARD: each cell carries into its column's sentinel.
COLUMNS_CENTRE_FIRST = {sum(TOP[c] << 1 for c in cols): tuple(c for c in CENTRE_FIRST if c in cols)
                        for cols in (tuple(c for c in range(WIDTH) if n >> c & 1) for n in range(1 << WIDTH))}


def lines_through(column: int, row: int) -> int:
    """How many of the board's 69 lines of four pass through a cell: 3 in a corner, 13 at the centre."""
    count = 0
    for dc, dr in ((0, 1), (1, 0), (1, 1), (1, -1)):
        for back in range(4):
            c0, r0 = column - back * dc, row - back * dr
            if 0 <= c0 <= WIDTH - 1 - 3 * dc and 0 <= r0 + 3 * dr <= HEIGHT - 1 and 0 <= r0 <= HEIGHT - 1:
                count += 1
    return count


# The cells' line counts as bit planes: a player's sum over their stones is, for k = 0..3, the number of
# their stones in LINE_PLANES[k] shifted left by k (four popcounts).
LINE_PLANES = tuple(sum(1 << (H1 * c + r) for c in range(WIDTH) for r in range(HEIGHT) if lines_through(c, r) >> k & 1)
                    for k in range(4))


def lines_weight(stones: int) -> int:
    """The sum over ``stones`` of the lines of four through each (see :func:`lines_through`)."""
    return ((stones & LINE_PLANES[0]).bit_count() + ((stones & LINE_PLANES[1]).bit_count() << 1)
            + ((stones & LINE_PLANES[2]).bit_count() << 2) + ((stones & LINE_PLANES[3]).bit_count() << 3))


def lowest_cells(cells: int) -> int:
    """The lowest of ``cells`` in every column (one bit a column at most): the column's sentinel bit keeps
    each column's subtraction from borrowing from the next."""
    marked = cells | ABOVE_BOARD
    return marked & ~(marked - BOTTOM) & BOARD


def cells_above(lowest: int) -> int:
    """The cells strictly above each of ``lowest`` (one bit a column at most) in its column."""
    return (ABOVE_BOARD - lowest) & BOARD & ~lowest


# The weights of threat_outlook (with those of the stones' lines, lines_weight, in the evaluation).
LIVE_THREAT, PARITY_THREAT, ZUGZWANG = 16, 12, 48


def threat_outlook(x_threats: int, o_threats: int) -> int:
    """The threats' worth for X (Allis' odd/even threats), given each player's winning cells.

    A threat with an opponent's threat below it in its column is dead: the column stops under the lower
    one, which whoever is forced to play beneath loses. A live threat weighs LIVE_THREAT. In each column the
    lowest live threat decides the end game when the board fills by zugzwang: X claims the odd rows (1, 3,
    5 from the bottom), O the even ones, so X's odd threats and O's even ones are good (PARITY_THREAT each).
    Counting the empty cells that are safe to play, as the board fills: X wins with more odd threats than
    O has odd threats (O's odd threat in another column turns the parity back), O wins with an even threat
    when X has no odd one; that side gets ZUGZWANG."""
    if not x_threats | o_threats:                             # the opening, mostly
        return 0
    o_live = o_threats & ~cells_above(lowest_cells(x_threats))
    x_live = x_threats & ~cells_above(lowest_cells(o_threats))
    x_low, o_low = lowest_cells(x_live), lowest_cells(o_live)
    x_odd, o_odd = (x_low & ODD_ROWS).bit_count(), (o_low & ODD_ROWS).bit_count()
    o_even = (o_low & EVEN_ROWS).bit_count()
    score = LIVE_THREAT * (x_live.bit_count() - o_live.bit_count()) + PARITY_THREAT * (x_odd - o_even)
    if x_odd > o_odd:
        score += ZUGZWANG
    elif o_even and not x_odd:
        score -= ZUGZWANG
    return score


ONGOING, WON, DRAWN = 0, 1, 2                                 # WON: by the player who just moved
SCORE = itemgetter(0)                                         # of a (score, column, child) triple

# A state's fields, by index. A plain tuple rather than a named one: the solver builds a state for every
# child, and a named tuple's constructor made fixed-depth searches 18% slower (bench/RESULTS.md).
CURRENT = 0             # the stones of the player to move
MASK = 1                # all stones
PLY = 2                 # the number of stones: X moves at even plies
STATUS = 3              # ONGOING, WON (by the player who just moved) or DRAWN
MINE = 4                # the winning cells of the player to move
THEIRS = 5              # the winning cells of the other player
KEY = 6                 # current + mask: the transposition tables' key (Connect4.key)

PLAYER_INFO = (Player("X", "Red", "#d62828"), Player("O", "Yellow", "#f7c815"))

GAME_TYPE = GameType(
    id=GAME_ID,
    name="Connect Four",
    description="Two players take turns dropping a stone into one of seven columns of a 6-row grid; it "
                "falls to the lowest empty cell. The first to get four stones in a row (horizontally, "
                "vertically or diagonally) wins; a full board is a draw. X moves first.",
    state_format="{\"board\": [six strings of seven characters 'X', 'O' or '.', top row first]} or "
                 "{\"moves\": \"4453\"}: the columns played from the empty board, numbered 1..7 from the "
                 "left as in Pons' notation and the standard test sets (so a move, 0..6, is one less than "
                 "its digit: move 3 is '4'); or both, if they agree. The player to move follows from the "
                 "counts. apply answers in the form it was sent: a moves state extended by the move's "
                 "digit, with the board beside it.",
    initial_state={"board": ["......."] * HEIGHT},
    move_format="the 0-based column index, 0..6 from the left (the moves string's digit minus one)",
    example_request={"game": "connect4", "state": {"moves": "4453"},
                     "algorithm": {"name": "alphabeta", "depth": 8}, "time_limit_ms": 1000,
                     "trace": False},
    players=player_ids(PLAYER_INFO),
    player_info=PLAYER_INFO,
    history_field="moves",
    conventions="The players' ids are the board's letters, X (first) and O. A move is a column 0..6 from the "
                "left, but a moves state writes the columns played as the digits 1..7 of Pons' notation and "
                "the standard test sets: move 3 is the digit \"4\".",
    chance=NO_CHANCE,
    zero_sum=True,
    alternating=True,
    outcomes=True,
    utility_bounds=(-1.0, 1.0),
    max_length=CELLS,
    sample_states=({"moves": "4453"}, {"moves": "5562347631247347631431"},
                   {"board": [".......", ".......", ".......", "...O...", "...X...", "..XXO.."]}),
    key_fixes_ply=True,
    value_unit="the utility +1 (win), 0 (draw), -1 (loss) for the player to move when proven; otherwise a heuristic estimate strictly inside (-1, 1) (MCTS: the mean playout utility)",
    value_scale="outcome",
    native_core=True,
    move_schema={"type": "integer", "minimum": 0, "maximum": WIDTH - 1},
)


def four_in_a_row(stones: int) -> bool:
    """Whether ``stones`` (one player's bitboard) hold four in a row in any direction."""
    for shift in (1, H1, H1 - 1, H1 + 1):                     # vertical, horizontal, both diagonals
        pairs = stones & (stones >> shift)
        if pairs & (pairs >> 2 * shift):
            return True
    return False


# completions() works on the four directions at once, each in a lane of its own in one big int. The
# stones times lane_steps(k) (one bit per lane) are, in every lane, the stones moved k steps along the
# lane's direction: four shifts in one multiplication. A lane is LANE bits wide, room for a 49-bit board
# moved 3 steps of up to 8 bits either way, and its board starts LANE_BASE bits in, so that moving to lower
# bits stays inside the lane.
DIRECTIONS = (1, H1, H1 - 1, H1 + 1)                          # vertical, horizontal, both diagonals
LANE, LANE_BASE = 100, 3 * (H1 + 1)


def lane_steps(k: int) -> int:
    """The multiplier that moves a board ``k`` steps (negative: backwards) along each lane's direction."""
    return sum(1 << (LANE * j + LANE_BASE + k * d) for j, d in enumerate(DIRECTIONS))


BACK3, BACK2, BACK1, AHEAD1, AHEAD2, AHEAD3 = (lane_steps(k) for k in (-3, -2, -1, 1, 2, 3))
LANE2, LANE3 = 2 * LANE, 3 * LANE


def winning_cells(stones: int, mask: int) -> int:
    """The empty cells (playable now or later) where ``stones`` would complete four in a row."""
    cells = COMPLETIONS.get(stones)
    if cells is None:
        cells = completions(stones)
    return cells & (BOARD ^ mask)


# A player's stones recur in many positions (the opponent's stones differ, or the same position comes again
# in another probe), so completions() remembers its answers: a solve finds about seven in ten of its calls
# here, at a dict lookup each. At most COMPLETIONS_MAX entries (some 25 MB), then it starts over; shared by
# every search in the process, which only ever reads answers that are true.
COMPLETIONS: dict[int, int] = {}
COMPLETIONS_MAX = 1 << 18


def completions(stones: int) -> int:
    """Every cell of the board, empty or not, where ``stones`` would complete four in a row: for each
    direction, a cell with three own stones after it, before it, or around it. The four directions are
    computed side by side in lanes (see ``lane_steps``), then the lanes are folded onto the board."""
    ahead, back = stones * AHEAD1, stones * BACK1             # a stone one step back, one step ahead
    r = (ahead & stones * AHEAD2 & (stones * AHEAD3 | back)
         | back & stones * BACK2 & (ahead | stones * BACK3)) >> LANE_BASE
    cells = (r | r >> LANE | r >> LANE2 | r >> LANE3) & BOARD
    if len(COMPLETIONS) >= COMPLETIONS_MAX:
        COMPLETIONS.clear()
    COMPLETIONS[stones] = cells
    return cells


def play(current: int, after: int, bit: int, ply: int, mine: int, theirs: int) -> tuple:
    """The state after the player to move, with stones ``current`` and winning cells ``mine`` (the
    opponent's: ``theirs``), puts a stone on the empty cell ``bit``, making the mask ``after``."""
    mover = current | bit
    status = WON if bit & mine else DRAWN if ply + 1 == CELLS else ONGOING
    current = mover ^ after
    return (current, after, ply + 1, status, theirs & ~bit, winning_cells(mover, after), current + after)


def safe_cells(playable: int, theirs: int) -> int:
    """The cells among ``playable`` where the player to move can play without letting the opponent (with
    winning cells ``theirs``) win at once: the block when the opponent threatens to win, none against two
    threats, never a cell right below an opponent's winning cell."""
    forced = playable & theirs
    if forced:
        if forced & (forced - 1):
            return 0
        playable = forced
    return playable & ~(theirs >> 1)


def column_of(bit: int) -> int:
    """The column of a one-bit board."""
    return (bit.bit_length() - 1) // H1


class Connect4(Game):
    """Connect Four. Utilities: +1 for a win, -1 for a loss, 0 for a draw."""

    id = GAME_ID
    game_type = GAME_TYPE
    capabilities = frozenset({EVALUATION, MOVE_ORDERING, HASHING, IMMEDIATE_WIN, SAFE_CHILDREN, OUTCOME_BOUNDS,
                              PLIES_BOUND})

    # --- the rules -------------------------------------------------------------------------------

    def to_move(self, state):
        return state[PLY] & 1

    def actions(self, state):
        mask = state[MASK]
        return [c for c in range(WIDTH) if not mask & TOP[c]]

    def result(self, state, column):
        current, mask, ply, _, mine, theirs, _ = state
        after = mask | (mask + (1 << H1 * column))
        return play(current, after, after ^ mask, ply, mine, theirs)

    def is_terminal(self, state):
        return state[STATUS] != ONGOING

    def utility(self, state, player):
        if state[STATUS] == WON:                              # the player who made the last move won
            return 1.0 if player == (state[PLY] - 1) & 1 else -1.0
        return 0.0

    # --- knowledge for searches ------------------------------------------------------------------

    def immediate_win(self, state):
        """A column where the player to move completes four at once, or None."""
        wins = state[MINE] & (state[MASK] + BOTTOM)
        return column_of(wins & -wins) if wins else None

    def ordered_actions(self, state):
        """Every legal column, best first: the safe ones (see :meth:`safe_children`), then the others,
        which hand the opponent a win, centre first."""
        safe = [c for _, c, _ in self.safe_children(state)]
        mask = state[MASK]
        return safe + [c for c in CENTRE_FIRST if not mask & TOP[c] and c not in safe]

    def safe_children(self, state):
        """``(score, column, child)`` for the columns after which the opponent cannot win at once (see
        :func:`safe_cells`), best first, ties centre first.

        The score of a move: Pons' score, the number of the mover's winning cells in the child, times 5,
        minus those of them that the opponent can fill at once (playable) or that lie right below another
        of the mover's winning cells. The tie-break saves about a tenth of the nodes of an exact solve
        (Test_L2_R2) over Pons' score alone. A lone safe column is not scored (0)."""
        current, mask, ply, _, mine, theirs, _ = state
        playable = (mask + BOTTOM) & BOARD
        safe = safe_cells(playable, theirs)
        if not safe & (safe - 1):                             # one safe move or none: nothing to order
            if not safe:
                return []
            return [(0, column_of(safe), play(current, mask | safe, safe, ply, mine, theirs))]
        ply += 1                                              # the children's
        status = DRAWN if ply == CELLS else ONGOING           # a safe move never wins: the mover can't
        scored = []
        for c in COLUMNS_CENTRE_FIRST[(safe + BOARD) & ABOVE_BOARD]:
            bit = safe & COLUMN[c]                            # play(), written out: the solver's hot spot
            after, mover = mask | bit, current | bit
            threats = COMPLETIONS.get(mover)
            if threats is None:
                threats = completions(mover)
            threats &= BOARD ^ after
            if threats:                                       # (none: 0, as the formula would give)
                weak = threats & (playable | bit << 1 | threats >> 1)
                score = 5 * threats.bit_count() - weak.bit_count()
            else:
                score = 0
            child = mover ^ after
            scored.append((score, c, (child, after, ply, status, theirs & ~bit, threats, child + after)))
        scored.sort(key=SCORE, reverse=True)                  # stable: ties stay centre first
        return scored

    def outcome_bounds(self, state):
        """Allis' claimeven: when X is to move and every column has an even number of empty cells, O can
        answer every move in the same column. The board then fills with X on the empty cells of the odd
        rows (1, 3, 5 from the bottom) and O on those of the even rows, whatever order X plays in. So if X's
        stones and those odd cells hold no four in a row, X cannot win (at most a draw), and if O's
        stones and the even cells also hold one, O wins. When O is to move and exactly one column has
        an odd number of empty cells, O plays there first (an even-row cell) and goes on the same way:
        then O draws at least, or wins. ``(lowest, highest)`` for the player to move, or None."""
        current, mask = state[CURRENT], state[MASK]
        odd_columns = (mask + BOTTOM) & EVEN_ROWS            # the next empty cell on an even row
        o_to_move = state[PLY] & 1
        if o_to_move:
            if not odd_columns or odd_columns & (odd_columns - 1):
                return None
            x, o = current ^ mask, current
        else:
            if odd_columns:
                return None
            x, o = current, current ^ mask
        empty = BOARD ^ mask
        if four_in_a_row(x | empty & ODD_ROWS):
            return None
        o_wins = four_in_a_row(o | empty & EVEN_ROWS)
        if o_to_move:
            return (1.0, 1.0) if o_wins else (0.0, 1.0)
        return (-1.0, -1.0) if o_wins else (-1.0, 0.0)

    def has_safe_move(self, state):
        """Whether :meth:`safe_children` lists any column: a few operations, no child built."""
        return safe_cells((state[MASK] + BOTTOM) & BOARD, state[THEIRS]) != 0

    def random_playout(self, state, uniform):
        """Random moves to the end of the game (at most 42 plies, so no deadline need interrupt it): the
        ``k``-th playable cell from the left is the ``k``-th legal column, and a move wins when the
        mover's stones then hold four in a row."""
        current, mask, ply, status, _, _, _ = state
        start = ply
        while status == ONGOING:
            playable = (mask + BOTTOM) & BOARD
            for _ in range(int(uniform() * playable.bit_count())):
                playable &= playable - 1                      # drop the leftmost playable cells
            bit = playable & -playable
            mover = current | bit
            mask |= bit
            ply += 1
            p = mover & (mover >> 1)                          # four_in_a_row(mover), written out
            if (p & (p >> 2) or (p := mover & (mover >> 7)) & (p >> 14)
                    or (p := mover & (mover >> 6)) & (p >> 12) or (p := mover & (mover >> 8)) & (p >> 16)):
                status = WON
            elif ply == CELLS:
                status = DRAWN
            current = mover ^ mask                            # the next mover's stones
        if status == DRAWN:
            return (0.0, 0.0), ply - start
        winner = (ply - 1) & 1                                # the player who made the last move
        return (1.0, -1.0) if winner == 0 else (-1.0, 1.0), ply - start

    # Pons' key ``current + mask``, kept in the state: adding the mask puts one bit above each column's
    # stones, so the key encodes both boards; the player to move follows from the number of stones. A C
    # getter rather than a method: a solve reads two or three keys a node.
    key = itemgetter(KEY)  # type: ignore[assignment]  # mypy: an itemgetter is no method, yet reads the same key

    def plies_bound(self, state):
        """The empty cells: no game lasts longer."""
        return CELLS - state[PLY]

    def evaluate(self, state, player):
        """For depth-limited play: the threats' structure (:func:`threat_outlook`: live threats, each
        column's lowest live threat on its owner's parity row, and the side those parity threats favour
        when the board fills by zugzwang), plus each stone's number of lines of four through its cell (3 to
        13: the centre counts most, which is what gives the opening, before any threat, its shape); the
        difference is squashed into (-1, 1). Exact on terminal states."""
        current, mask, ply, status, mine, theirs, _ = state
        if status != ONGOING:
            return self.utility(state, player)
        mover = ply & 1
        x_threats, o_threats = (mine, theirs) if mover == 0 else (theirs, mine)
        score = threat_outlook(x_threats, o_threats)          # for X
        if mover:
            score = -score
        score += lines_weight(current) - lines_weight(current ^ mask)
        value = score / (abs(score) + 128)                    # for the player to move
        return value if player == mover else -value

    def native_state(self, state):
        """The state as the compiled core reads it (native/src/bindings/connect4.cpp): ``(current, mask)``,
        the stones of the player to move and all stones; the core derives the rest."""
        return state[CURRENT], state[MASK]

    # --- JSON ------------------------------------------------------------------------------------

    def state_to_json(self, state):
        current, mask, ply = state[CURRENT], state[MASK], state[PLY]
        x = current if ply & 1 == 0 else current ^ mask
        rows = []
        for r in reversed(range(HEIGHT)):
            rows.append("".join("." if not mask >> (H1 * c + r) & 1 else "X" if x >> (H1 * c + r) & 1 else "O"
                                for c in range(WIDTH)))
        return {"board": rows}

    def child_to_json(self, state_json, move, child):
        """A ``moves`` state answers the moves string extended by ``move`` (as its digit, ``move`` + 1),
        with the board beside it; a ``board`` state answers the board."""
        if "moves" not in state_json:
            return self.state_to_json(child)
        return {"moves": state_json["moves"] + move_digit(move), **self.state_to_json(child)}


GAME = Connect4()


def move_digit(column: int) -> str:
    """A move (the 0-based column) as its digit in a ``moves`` string: columns count 1..7 there."""
    return DIGITS[column]


def initial_state():
    """The empty board, X to move."""
    return (0, 0, 0, ONGOING, 0, 0, 0)


def state_from_boards(x: int, o: int):
    """The state with X's and O's stones, assumed legal; the status from the stones."""
    mask = x | o
    ply = mask.bit_count()
    current, other = (x, o) if ply & 1 == 0 else (o, x)
    if four_in_a_row(x) or four_in_a_row(o):
        status = WON
    else:
        status = DRAWN if ply == CELLS else ONGOING
    return (current, mask, ply, status, winning_cells(current, mask), winning_cells(other, mask), current + mask)


def load(state_json, limits=None, **_):
    """``(game, state)`` from ``{"board": [...]}``, ``{"moves": "4453"}`` or both (as ``apply`` answers a
    moves state), which must then be the same position; :class:`InvalidState` names the field at fault."""
    unknown = set(state_json) - {"board", "moves"}
    if unknown:
        raise InvalidState(f"unknown keys {sorted(unknown)}; a connect4 state has board or moves")
    if "board" not in state_json and "moves" not in state_json:
        raise InvalidState("give board or moves (or both, if they agree)")
    if "moves" not in state_json:
        return GAME, parse_board(state_json["board"])
    state = parse_moves(state_json["moves"])
    if "board" in state_json and parse_board(state_json["board"]) != state:
        raise InvalidState("the board is not the position the moves reach: "
                           f"{GAME.state_to_json(state)['board']}", field="state.board")
    return GAME, state


def parse_moves(moves):
    """Replay ``moves`` (columns 1..7, each a move's digit: :func:`move_digit`) from the empty board."""
    field = "state.moves"
    if not isinstance(moves, str):
        raise InvalidState("moves is a string of column digits 1..7, e.g. \"4453\"", field=field)
    if len(moves) > CELLS:
        raise InvalidState(f"a game has at most {CELLS} moves; got {len(moves)}", field=field)
    state = initial_state()
    for i, ch in enumerate(moves):
        if ch not in DIGITS:
            raise InvalidState(f"move {i + 1} is {ch!r}; columns are the digits 1..7", field=field)
        if state[STATUS] != ONGOING:
            raise InvalidState(f"the game is over after move {i}; move {i + 1} ({ch}) cannot be played",
                               field=field)
        column = DIGITS.index(ch)
        if state[MASK] & TOP[column]:
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
