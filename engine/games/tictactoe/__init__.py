"""Tic-tac-toe and its m,n,k generalisation (gomoku is 15,15,5), on bitboards.

Cell ``r * n + c`` is bit ``r * n + c`` of an int. A state is the named tuple :class:`State` ``(x, o, ply,
status)``: X's and O's bitboards, the number of marks on the board (X moves at even plies) and the status,
computed once when a move is made: ongoing, X won, O won or drawn. So ``to_move``, ``is_terminal`` and
``utility`` are a tuple lookup, and ``result`` tests only the lines through the cell just played; on small
boards (3 x 3 among them) it looks the mover's marks up in a table of every set of cells that holds a line.
On large boards the game prunes a search to its candidate moves and searches threats (:mod:`.threats`): wins
by continuous fours and threes, its own and the opponent's.
"""
from collections import OrderedDict
from functools import lru_cache
from typing import NamedTuple

from engine.bits import cells_of, lowest_cell
from engine.deadline import Timeout
from engine.errors import InvalidState
from engine.grid import check_rows
from engine.registry import NO_CHANCE, GameType, Player, player_ids
from engine.game import CANDIDATES, EVALUATION, EXTENSIONS, HASHING, MOVE_ORDERING, PLIES_BOUND, THREATS, Game
from engine.games.tictactoe.threats import Exhausted, Threats
from engine.games.tictactoe.windows import Windows

GAME_ID = "tictactoe"
MAX_SIDE = 19
ONGOING, X_WON, O_WON, DRAWN = 0, 1, 2, 3


class State(NamedTuple):
    """A position; its status is computed once, when the move is made."""

    x: int              # X's marks, cell r * n + c at bit r * n + c
    o: int              # O's marks
    ply: int            # the number of marks: X moves at even plies
    status: int         # ONGOING, X_WON, O_WON or DRAWN
SMALL_BOARD_CELLS = 12  # boards up to this many cells find empty cells and completed lines by table lookup
NEAR = 2                # on larger boards, move ordering puts cells this close to a mark before the rest
# Move ordering on larger boards: an empty cell's urgency sums, over the lines through it that hold marks
# of one player only, 4 ** marks, times this for the mover's own lines (completing one wins; blocking the
# opponent's comes next; a double threat of the mover outranks a single one of the opponent's).
ATTACK_WEIGHT = 1.5
PRUNED_FROM = 81        # boards of this many cells or more (9 x 9 up) search only their candidate moves ...
BEAM = 8                # ... the most urgent this many, unless a win or the defences against one decide
THREES = 3              # threat searches: at most this many threes in a line (fours are not counted) ...
THREAT_BUDGET = 20000   # ... and positions visited looking for a win, or for the opponent's (0.7 s of CPU)
REFUTATION_BUDGET = 5000 # ... and positions for each check of whether a move refutes the opponent's
WINDOW_CACHE = 1 << 10  # positions whose window counts each game keeps (evaluation, ordering and pruning ask
                        # for a node's several times); more would be young objects that the cyclic collector
                        # walks when a search ends, past its deadline (bench/STRENGTH.md, 15 x 15)
THREAT_VALUE = 0.9      # the evaluation of a position won or lost by a threat within two plies (for X)
FORCING_VALUE = 0.8     # ... and of one the mover wins in three by making two threats at once
POWERS_OF_4 = [4 ** n for n in range(MAX_SIDE + 1)]

PLAYER_INFO = (Player("X", "X", "#1f6feb"), Player("O", "O", "#b42318"))

GAME_TYPE = GameType(
    id=GAME_ID,
    name="Tic-tac-toe (m,n,k)",
    description="Two players take turns marking cells of an m x n grid; the first to get k marks in a row "
                "(horizontally, vertically or diagonally) wins. X moves first.",
    state_format="{\"board\": [m strings of n characters 'X', 'O' or '.', top row first], \"k\": k (default "
                 "3)}; 1 <= m, n <= 19. The player to move follows from the counts.",
    initial_state={"board": ["...", "...", "..."], "k": 3},
    move_format="the 0-based cell index, row-major: row * n + column",
    example_request={"game": "tictactoe", "state": {"board": ["X.O", "...", "..."], "k": 3},
                     "algorithm": {"name": "alphabeta"}, "time_limit_ms": 1000},
    players=player_ids(PLAYER_INFO),
    player_info=PLAYER_INFO,
    conventions="The players' ids are the board's letters, X and O. A move is a cell, numbered 0 to m * n - 1 "
                "row by row from the top left.",
    chance=NO_CHANCE,
    zero_sum=True,
    alternating=True,
    outcomes=True,
    utility_bounds=(-1.0, 1.0),
    max_length=MAX_SIDE * MAX_SIDE,
    sample_states=({"board": ["....", ".X..", "..O.", "...."], "k": 3},
                   {"board": ["." * 15] * 7 + ["......XO......."] + ["." * 15] * 7, "k": 5},
                   # X to move wins by continuous threats: the root's threat-space search proves it
                   {"board": ["O.O" + "." * 12] + ["." * 15] * 6 + [".....XXX......."] + ["." * 15] * 6
                    + ["." * 14 + "O"], "k": 5},
                   {"board": ["XOX", "OXO", "..."], "k": 3}),
    key_fixes_ply=True,
    value_unit="the utility +1 (win), 0 (draw), -1 (loss) for the player to move when proven; otherwise a heuristic estimate strictly inside (-1, 1) (MCTS: the mean playout utility)",
    value_scale="outcome",
    native_core=True,
    move_schema={"type": "integer", "minimum": 0, "maximum": MAX_SIDE * MAX_SIDE - 1},
)


class TicTacToe(Game):
    """The m,n,k-game. Utilities: +1 for a win, -1 for a loss, 0 for a draw."""

    id = GAME_ID
    game_type = GAME_TYPE
    capabilities = frozenset({MOVE_ORDERING, EVALUATION, HASHING, PLIES_BOUND})

    def __init__(self, rows: int, cols: int, k: int):
        self.rows, self.cols, self.k = rows, cols, k
        self.cells = rows * cols
        self.full = (1 << self.cells) - 1
        self.lines = winning_lines(rows, cols, k)
        self.lines_through: list[list[int]] = [[] for _ in range(self.cells)]
        for line in self.lines:
            for cell in cells_of(line):
                self.lines_through[cell].append(line)
        centre_r, centre_c = (rows - 1) / 2, (cols - 1) / 2
        # Move ordering: cells on more winning lines first, then nearer the centre, then natural order.
        self.by_promise = sorted(range(self.cells), key=lambda cell: (
            -len(self.lines_through[cell]),
            abs(cell // cols - centre_r) + abs(cell % cols - centre_c), cell))
        self.rank = {cell: i for i, cell in enumerate(self.by_promise)}
        self.windows = Windows(rows, cols, k)
        self.window_cache: OrderedDict = OrderedDict()          # (x, o) -> X's and O's windows by count, latest last
        self.every_count = range(k + 1)
        self.threats = Threats(self.windows, self.lines_through, self.full)
        self.incremental = self.cells >= PRUNED_FROM
        if self.incremental:
            self.capabilities = self.capabilities | {CANDIDATES, EXTENSIONS, THREATS}
        small = self.cells <= SMALL_BOARD_CELLS
        self.empty_cells = empty_cell_table(self.cells) if small else None
        self.holds_line = line_table(self.cells, self.lines) if small else None
        self.near = None if small else [sum(1 << (r * cols + c)
                                            for r in range(max(0, cell // cols - NEAR), min(rows, cell // cols + NEAR + 1))
                                            for c in range(max(0, cell % cols - NEAR), min(cols, cell % cols + NEAR + 1)))
                                        for cell in range(self.cells)]

    def to_move(self, state):
        return state.ply & 1

    def actions(self, state):
        occupied = state.x | state.o
        if self.empty_cells is not None:
            return self.empty_cells[occupied]
        return cells_of(self.full & ~occupied)

    def ordered_actions(self, state):
        """Small boards: by promise (cells on more lines, nearer the centre). Larger boards: the urgent cells
        first (winning, blocking, making threats: see :data:`ATTACK_WEIGHT`), then the other cells within
        :data:`NEAR` of a mark, then the rest, each group by promise."""
        occupied = state.x | state.o
        if self.near is None or not occupied:
            return [cell for cell in self.by_promise if not occupied >> cell & 1]
        return self.urgent_first(state)

    def urgent_first(self, state, wanted: int | None = None) -> list:
        """The empty cells, urgent ones first (see :meth:`ordered_actions`); only the first ``wanted``
        when it is given, and then, where enough cells make lines of two marks or more, ranked by those
        lines alone (the windows of single marks are many, and they seldom decide)."""
        occupied = state.x | state.o
        rank = self.rank
        if wanted is not None:
            urgency = self.urgency(state, 2)
            if len(urgency) >= wanted:
                return sorted(urgency, key=lambda cell: (-urgency[cell], rank[cell]))[:wanted]
        urgency = self.urgency(state)
        order = sorted(urgency, key=lambda cell: (-urgency[cell], rank[cell]))
        if wanted is not None and len(order) >= wanted:
            return order[:wanted]
        near, near_cells = 0, self.near
        assert near_cells is not None  # only boards that are not small order their moves here
        for cell in cells_of(occupied):
            near |= near_cells[cell]
        rest = [cell for cell in self.by_promise if not occupied >> cell & 1 and cell not in urgency]
        order += [c for c in rest if near >> c & 1] + [c for c in rest if not near >> c & 1]
        return order if wanted is None else order[:wanted]

    def urgency(self, state, least: int = 1) -> dict:
        """``{cell: urgency}`` for the empty cells of the windows (k cells in a row) that hold marks of
        one player only, ``least`` marks or more: the sum over those windows of 4 ** marks, times
        :data:`ATTACK_WEIGHT` for the mover's."""
        x, o = state.x, state.o
        empty = self.full & ~(x | o)
        x_windows, o_windows = self.open_windows(x, o)
        mine, theirs = (o_windows, x_windows) if state.ply & 1 else (x_windows, o_windows)
        urgency: dict[int, int] = {}
        windows = self.windows.windows
        for counts, weight in ((mine, ATTACK_WEIGHT), (theirs, 1)):
            for m in range(least, self.k):
                value = weight * POWERS_OF_4[m]
                for window in windows(counts, m):
                    for cell in cells_of(window & empty):
                        urgency[cell] = urgency.get(cell, 0) + value
        return urgency

    def candidate_actions(self, state):
        """Forward pruning on large boards (:data:`PRUNED_FROM` cells), the forcing replies first:

        - a win at once, if the mover has one;
        - else every cell where the opponent would win at once, if there is one (the only defences);
        - else, when the opponent has a *three* (a move that makes two completions at once: an open four
          or two fours), the moves after which it has none (:meth:`three_defences`) and the mover's fours
          (which it must answer first); the threat cells themselves when no single move stops them all;
        - else, when the mover has a three of its own, its moves that make two completions (they win
          unless the opponent wins by fours first);
        - else the :data:`BEAM` most urgent cells (the centre on the empty board).

        Only the first two are complete: a quiet move left out may prepare a win by fours of the mover's."""
        x, o = state.x, state.o
        occupied = x | o
        if not occupied:
            return [self.by_promise[0]], False
        empty = self.full & ~occupied
        x_windows, o_windows = self.open_windows(x, o)
        mine, theirs = (o_windows, x_windows) if state.ply & 1 else (x_windows, o_windows)
        k, windows = self.k, self.windows
        wins = windows.covered(mine, k - 1, empty)
        if wins:
            return [lowest_cell(wins)], True
        losses = windows.covered(theirs, k - 1, empty)
        if losses:
            return cells_of(losses), True
        if k >= 3:
            lines = list(windows.windows(theirs, k - 2))
            threes = double_completions(lines, occupied)
            if threes:
                moves = self.three_defences(lines, occupied) | windows.covered(mine, k - 2, empty) or threes
            else:
                moves = double_completions(list(windows.windows(mine, k - 2)), occupied)
            if moves:
                return sorted(cells_of(moves), key=self.rank.__getitem__), moves == empty
        beam = self.urgent_first(state, BEAM)
        return beam, len(beam) == empty.bit_count()

    @staticmethod
    def three_defences(lines: list, occupied: int) -> int:
        """The empty cells (a bitmask) after a mark on which no move of the opponent's makes two completions
        at once: ``lines``, the opponent's windows two marks short of complete and holding none of the
        mover's (a mark kills those through its cell)."""
        defences = 0
        for cell in cells_of(sum_cells(lines) & ~occupied):
            rest = [line for line in lines if not line >> cell & 1]
            if not double_completions(rest, occupied | 1 << cell):
                defences |= 1 << cell
        return defences

    @staticmethod
    def marks(state) -> tuple:
        """The marks of the player to move, and the opponent's."""
        return (state.o, state.x) if state.ply & 1 else (state.x, state.o)

    def threat_win(self, state, deadline, stats):
        """A win by continuous threats for the player to move (:meth:`.threats.Threats.win`), or None."""
        mine, theirs = self.marks(state)
        try:
            return self.threats.win(mine, theirs, THREES, THREAT_BUDGET, deadline, stats)
        except Exhausted:
            return None

    def threat_defences(self, state, deadline, stats):
        """When the opponent, were it to move, would win by continuous threats: the critical cells of its
        line (:meth:`.threats.Threats.critical`: the line's cells, the mover's fours among them) after
        which the opponent's threat search finds no win (after a four of the mover's, its forced reply
        made, as if the opponent moved again; the opponent may complete a four of its own first), most
        promising first; if there are none, those after which the search ran out of budget, undecided
        (or an empty list); None when the opponent has no such win. When ``deadline`` passes during the
        checks, the cells not yet checked count as undecided."""
        mine, theirs = self.marks(state)
        threats = self.threats
        try:
            line = threats.win(theirs, mine, THREES, THREAT_BUDGET, deadline, stats)
        except Exhausted:
            return None
        if line is None:
            return None
        cells = sorted(cells_of(threats.critical(line, theirs, mine)), key=self.rank.__getitem__)
        defences, undecided = [], []
        for i, cell in enumerate(cells):
            after = mine | 1 << cell
            forced = threats.completions(after, theirs, cell)
            if forced & (forced - 1):
                forced = 0                             # two to block: the opponent wins at once or loses
            try:
                if threats.win(theirs | forced, after, THREES, REFUTATION_BUDGET, deadline, stats) is None:
                    defences.append(cell)
            except Exhausted:
                undecided.append(cell)
            except Timeout:
                undecided += cells[i:]
                break
        return defences or undecided

    def forcing(self, state):
        """Whether the mover, unable to win at once, must stop the opponent's win at once (a four): the
        reply is forced, so a search looks one ply deeper at no cost in width."""
        x, o = state.x, state.o
        empty = self.full & ~(x | o)
        x_windows, o_windows = self.open_windows(x, o)
        mine, theirs = (o_windows, x_windows) if state.ply & 1 else (x_windows, o_windows)
        covered = self.windows.covered
        return not covered(mine, self.k - 1, empty) and covered(theirs, self.k - 1, empty) != 0

    def open_windows(self, x: int, o: int) -> tuple:
        """X's and O's windows by count 0 .. k (:meth:`~engine.games.tictactoe.windows.Windows.by_count`), kept for
        the latest :data:`WINDOW_CACHE` positions (a search asks for one position's several times; on large
        boards :meth:`result` derives a child's from its parent's)."""
        cache, key = self.window_cache, (x, o)
        counts = cache.get(key)
        if counts is None:
            windows, every = self.windows, self.every_count
            counts = windows.by_count(x, o, every), windows.by_count(o, x, every)
            self.keep_windows(key, counts)
        else:
            try:
                cache.move_to_end(key)
            except KeyError:  # another thread's search (a game is shared by a worker's threads) dropped it
                pass
        return counts

    def keep_windows(self, key: tuple, counts: tuple) -> None:
        cache = self.window_cache
        cache[key] = counts
        if len(cache) > WINDOW_CACHE:
            cache.popitem(last=False)

    def result(self, state, cell):
        x, o, ply, _ = state
        bit = 1 << cell
        parent = self.window_cache.get((x, o)) if self.incremental else None
        if ply & 1:
            o |= bit
            mine, won = o, O_WON
        else:
            x |= bit
            mine, won = x, X_WON
        if parent is not None:                        # the child's window counts from the parent's, cheaply
            if ply & 1:
                o_windows, x_windows = self.windows.after_move(parent[1], parent[0], cell)
            else:
                x_windows, o_windows = self.windows.after_move(parent[0], parent[1], cell)
            self.keep_windows((x, o), (x_windows, o_windows))
        holds_line = self.holds_line
        if holds_line is not None:
            if holds_line[mine]:
                return State(x, o, ply + 1, won)
        else:
            for line in self.lines_through[cell]:
                if mine & line == line:
                    return State(x, o, ply + 1, won)
        return State(x, o, ply + 1, DRAWN if ply + 1 == self.cells else ONGOING)

    def is_terminal(self, state):
        return state.status != ONGOING

    def utility(self, state, player):
        status = state.status
        if status == X_WON:
            return 1.0 if player == 0 else -1.0
        if status == O_WON:
            return -1.0 if player == 0 else 1.0
        return 0.0

    def evaluate(self, state, player):
        """Open lines: every window of k cells in a row that holds marks of one player only counts for
        that player, more the fuller it is (4 ** marks); the sum is squashed into (-1, 1). Then the tempo:
        a player to move who can complete a line wins next ply, and one whose opponent can complete lines
        at two cells or more (and who cannot complete one) loses within two: both are scored
        :data:`THREAT_VALUE`. A mover who cannot be stopped that way but can make two completions with one
        mark (an open four, or two fours) wins in three: :data:`FORCING_VALUE`. On large boards
        (:data:`PRUNED_FROM` cells) a mover with no four to make, whose opponent has threes that no one
        move stops (a double three: :meth:`three_defences` finds none), loses: :data:`FORCING_VALUE` too."""
        if state.status != ONGOING:
            return self.utility(state, player)
        x, o = state.x, state.o
        occupied = x | o
        empty = self.full & ~occupied
        x_windows, o_windows = self.open_windows(x, o)
        score, k, power = 0, self.k, POWERS_OF_4
        for m in range(1, k):
            score += power[m] * (x_windows[m].bit_count() - o_windows[m].bit_count())
        value = score / (abs(score) + power[k])
        o_to_move = state.ply & 1
        mover, other = (o_windows, x_windows) if o_to_move else (x_windows, o_windows)
        covered = self.windows.covered
        mover_wins, other_wins = covered(mover, k - 1, empty), covered(other, k - 1, empty)
        if mover_wins or other_wins & (other_wins - 1):
            value = THREAT_VALUE if (mover_wins != 0) != bool(o_to_move) else -THREAT_VALUE
        elif not other_wins and k >= 3 and double_completions(list(self.windows.windows(mover, k - 2)),
                                                               occupied):
            value = -FORCING_VALUE if o_to_move else FORCING_VALUE
        elif (self.incremental and not other_wins and not covered(mover, k - 2, empty)
              and self.unstoppable_threes(list(self.windows.windows(other, k - 2)), occupied)):
            value = FORCING_VALUE if o_to_move else -FORCING_VALUE
        return value if player == 0 else -value

    def unstoppable_threes(self, lines: list, occupied: int) -> bool:
        """Whether the opponent's ``lines`` (see :meth:`three_defences`) make threes that no one move stops."""
        return double_completions(lines, occupied) != 0 and not self.three_defences(lines, occupied)

    def key(self, state):
        return state.x << self.cells | state.o

    def plies_bound(self, state):
        return self.cells - state.ply

    def native_state(self, state) -> tuple:
        """The state as the compiled core reads it (native/src/bindings/mnk.cpp): ``(rows, cols, k, x, o)``,
        the marks as little-endian bytes; the core recomputes the ply and the status."""
        size = (self.cells + 7) // 8
        return (self.rows, self.cols, self.k, state.x.to_bytes(size, "little"), state.o.to_bytes(size, "little"))

    def state_to_json(self, state):
        x, o = state.x, state.o
        rows = ["".join("X" if x >> (r * self.cols + c) & 1 else "O" if o >> (r * self.cols + c) & 1 else "."
                        for c in range(self.cols)) for r in range(self.rows)]
        return {"board": rows, "k": self.k}


def completions_made(lines: list, occupied: int) -> dict:
    """``{cell: the cells (a bitmask) that a mark on it makes completions}``, for ``lines`` holding one
    player's marks only, two short of complete: a mark on either empty cell of one makes the other a
    completion."""
    makes: dict[int, int] = {}
    for line in lines:
        rest = line & ~occupied
        low = rest & -rest
        high = rest ^ low
        a, b = low.bit_length() - 1, high.bit_length() - 1
        makes[a] = makes.get(a, 0) | high
        makes[b] = makes.get(b, 0) | low
    return makes


def double_completions(lines: list, occupied: int) -> int:
    """The cells (a bitmask) where one mark makes two completions or more (:func:`completions_made`)."""
    return sum(1 << cell for cell, made in completions_made(lines, occupied).items() if made & (made - 1))


def sum_cells(lines: list) -> int:
    """The union of the cells of ``lines``."""
    cells = 0
    for line in lines:
        cells |= line
    return cells


def winning_lines(rows: int, cols: int, k: int) -> list:
    """Every set of k cells in a row, column or diagonal, as a bitmask."""
    lines = []
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                end_r, end_c = r + dr * (k - 1), c + dc * (k - 1)
                if 0 <= end_r < rows and 0 <= end_c < cols:
                    lines.append(sum(1 << ((r + dr * i) * cols + c + dc * i) for i in range(k)))
    return lines


def line_table(cells: int, lines: list) -> bytes:
    """For every set of cells (a bitmask), 1 if it holds a whole winning line, else 0."""
    table = bytearray(1 << cells)
    for line in lines:
        free = ((1 << cells) - 1) & ~line
        subset = free
        while True:                                       # every superset of the line: line | subset of the rest
            table[line | subset] = 1
            if not subset:
                break
            subset = (subset - 1) & free
    return bytes(table)


def empty_cell_table(cells: int) -> list:
    """For every occupancy bitmask, the empty cells in natural order."""
    return [[cell for cell in range(cells) if not occupied >> cell & 1] for occupied in range(1 << cells)]


@lru_cache(maxsize=64)
def game_for(rows: int, cols: int, k: int) -> TicTacToe:
    """Games are immutable rule books: build each board size's tables once per process."""
    return TicTacToe(rows, cols, k)


def load(state_json, limits=None, **_):
    unknown = set(state_json) - {"board", "k"}
    if unknown:
        raise InvalidState(f"unknown keys {sorted(unknown)}; a tictactoe state has board and k")
    board, k = state_json.get("board"), state_json.get("k", 3)
    cols = check_rows(board, "state.board", MAX_SIDE, "XO.")
    rows = len(board)
    if isinstance(k, float) and k.is_integer():
        k = int(k)
    if not isinstance(k, int) or isinstance(k, bool) or not 1 <= k <= max(rows, cols):
        raise InvalidState(f"k must be an integer from 1 to {max(rows, cols)}", field="state.k")
    game = game_for(rows, cols, k)
    cells = "".join(board)
    x = sum(1 << i for i, ch in enumerate(cells) if ch == "X")
    o = sum(1 << i for i, ch in enumerate(cells) if ch == "O")
    nx, no = x.bit_count(), o.bit_count()
    if nx not in (no, no + 1):
        raise InvalidState(f"X moves first, so X has as many marks as O or one more; got X {nx}, O {no}",
                           field="state.board")
    x_won = any(x & line == line for line in game.lines)
    o_won = any(o & line == line for line in game.lines)
    if x_won and o_won:
        raise InvalidState("both players have k in a row", field="state.board")
    if (x_won and nx != no + 1) or (o_won and nx != no):
        raise InvalidState("the winner must have made the last move", field="state.board")
    ply = nx + no
    status = X_WON if x_won else O_WON if o_won else DRAWN if ply == game.cells else ONGOING
    return game, State(x, o, ply, status)
