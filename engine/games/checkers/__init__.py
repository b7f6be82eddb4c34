"""English checkers (American draughts, 8 x 8) on bitboards, with precomputed step and jump tables.

The board and the notation. The 32 dark squares are numbered 1-32 as in PDN: row by row from the top of
the diagram (Black's side), four squares a row, square 1 in the second column. Black's men start on 1-12
and move down the board (to higher numbers), White's on 21-32 and move up; Black moves first. A man that
reaches the far row (29-32 for Black, 1-4 for White) is crowned and his move ends there; kings step and
jump both ways, one square at a time. Captures are forced, and a capture goes on while the capturing piece
can jump again. A player with no legal move (no pieces, or all blocked) loses.

Bitboards and move generation: :mod:`.board`.

A state is the tuple ``(black, white, kings, turn, history, drawn)`` (fields read by the index constants
``BLACKS`` .. ``DRAWN``): the two sides' pieces, the kings of either side, the player to move (0 Black, 1
White), the positions (:func:`position_key`) seen since the last capture or man's move, oldest first, and
whether the game is drawn here: by threefold repetition (the current position is in the history twice) or
after ``no_progress_plies`` plies that neither capture nor move a man (the history is that long). Only those
earlier positions can ever come back (a man's move or a capture cannot be undone), so the history is
everything the rest of the game depends on. Under the game option ``man_move_resets`` false (OpenSpiel's
rule: its draw is 40 plies without a capture), a man's move does not restart the count: the history then
runs from the last capture, and the positions in it from before the last man's move count the plies but can
never repeat.

Repetition and the transposition table (graph-history interaction): the value of a position depends on
its history, so the table key (:meth:`Checkers.key`) holds what of the history the future depends on:
its length (the no-progress count) and the earlier positions that can still come back, in a fixed order.
Two states share a table entry only when they share their future: a draw by repetition found below one
path is never reused for the same position reached along another path, where the repetition would not
happen.

A move is ``(from, to, captured, path)``: one-bit boards of the moving piece's square and its landing
square, the captured pieces, and for a multi-jump the squares it lands on (``None`` otherwise); in JSON it
is the PDN ``"11-15"``, ``"22x15"`` or ``"26x17x10"``. Different jump paths to the same result are
different moves.
"""
from functools import lru_cache
import re
from typing import Any

from engine.errors import AlgorithmMismatch, IllegalMove, InvalidState
from engine.games.checkers.board import (ADVANCED, AT, BACK_RANK, BIT, BLACK, CENTRE, COORD, CROWN, DOUBLE_CORNERS,
                                         ON_BOARD, ROWS_TO_GO, SQUARE, SQUARES, START, WHITE, bits_of, can_capture,
                                         generate, row_col, squares_of, step_count, stuck)
from engine.games.checkers.kings import plies_to_win, table
from engine.game import EVALUATION, HASHING, MOVE_ORDERING, PLIES_BOUND, Game
from engine.registry import NO_CHANCE, GameOption, GameType, Player, player_ids

GAME_ID = "checkers"
COLOURS = "bw"
DEFAULT_NO_PROGRESS_PLIES = 80          # 40 moves each: the forty-move rule of tournament play
DEFAULT_MAN_MOVE_RESETS = True
MAX_NO_PROGRESS_PLIES = 1000


# --- positions and states ---------------------------------------------------------------------------

BOARD_BITS = 35


def position_key(black: int, white: int, kings: int, turn: int) -> int:
    """One int that identifies a position, the player to move included (a history entry)."""
    return black | white << BOARD_BITS | kings << 2 * BOARD_BITS | turn << 3 * BOARD_BITS


def position_of(key: int) -> tuple[int, int, int, int]:
    """``(black, white, kings, turn)`` of a :func:`position_key`."""
    mask = (1 << BOARD_BITS) - 1
    return key & mask, key >> BOARD_BITS & mask, key >> 2 * BOARD_BITS & mask, key >> 3 * BOARD_BITS


def men_of(key: int) -> int:
    """The men of both sides, and their colours, in a :func:`position_key`: two positions in which they
    differ can never be the same again (men only move forward)."""
    mask = (1 << BOARD_BITS) - 1
    kings = key >> 2 * BOARD_BITS & mask
    return key & ~(kings | kings << BOARD_BITS) & ((1 << 2 * BOARD_BITS) - 1)


# A state's fields, by index. A plain tuple rather than a named one: a named tuple's constructor made
# fixed-depth searches 16% slower (bench/RESULTS.md).
BLACKS = 0              # Black's pieces (a bitboard, :mod:`.board`)
WHITES = 1              # White's pieces
KINGS = 2               # the kings of either side
TURN = 3                # the player to move: BLACK or WHITE
HISTORY = 4             # the position keys since the last capture or man's move, oldest first
DRAWN = 5               # drawn here, by repetition or by the no-progress rule
POSITION = slice(BLACKS, HISTORY)   # (black, white, kings, turn): what the move generator reads


def make_state(black: int, white: int, kings: int, turn: int, history: tuple, limit: int) -> tuple:
    """The state of a position reached after ``history``, with its draw flag for the no-progress ``limit``."""
    drawn = len(history) >= limit or (bool(history)
                                      and history.count(position_key(black, white, kings, turn)) >= 2)
    return black, white, kings, turn, history, drawn


START_BOARD = [".b.b.b.b", "b.b.b.b.", ".b.b.b.b", "........", "........", "w.w.w.w.", ".w.w.w.w", "w.w.w.w."]
NO_PROGRESS_PLIES = GameOption(
    name="no_progress_plies",
    schema={"type": "integer", "minimum": 1, "maximum": MAX_NO_PROGRESS_PLIES,
            "default": DEFAULT_NO_PROGRESS_PLIES},
    description="checkers: the game is drawn after this many plies in a row (moves of either player) "
                f"without a capture or a man's move (default {DEFAULT_NO_PROGRESS_PLIES}: forty moves each)")
MAN_MOVE_RESETS = GameOption(
    name="man_move_resets",
    schema={"type": "boolean", "default": DEFAULT_MAN_MOVE_RESETS},
    description="checkers: whether a man's move, as well as a capture, starts the no_progress_plies count "
                "again (default true); false counts the plies since the last capture only, as OpenSpiel's "
                "checkers does (its draw: no_progress_plies 40, man_move_resets false)")
# Every game ends: a man moves at most 7 times and at most 23 captures are made by kings, and between two
# such moves (and before the first, after the last) come fewer than the limit's plies.
IRREVERSIBLE_MOVES = 24 * 7 + 23

PLAYER_INFO = (Player("b", "Black", "#222222"), Player("w", "White", "#ffffff"))

GAME_TYPE = GameType(
    id=GAME_ID,
    name="English checkers",
    description="American draughts on the 32 dark squares of an 8 x 8 board. Men step diagonally forward "
                "(Black's down the board, to higher square numbers), kings either way; a piece captures by "
                "jumping an adjacent enemy piece to the empty square beyond. Captures are forced, a capture "
                "goes on while the piece can jump again, and a man reaching the far row is crowned and his "
                "move ends. A player who cannot move loses. Draws: threefold repetition, or "
                "options.no_progress_plies plies (default 80) without a capture or a man's move (with "
                "options.man_move_resets false, without a capture: OpenSpiel's rule). Black moves first.",
    state_format="{\"board\": [8 strings of 8, top row first: 'b', 'w' men, 'B', 'W' kings, '.' empty], "
                 "\"to_move\": \"b\" | \"w\", \"history\"?: [PDN FENs]} or {\"fen\": PDN FEN, "
                 "\"history\"?: [...]} or {} (the start). The dark squares are numbered 1-32 from the top: "
                 "row 1 holds 1-4 in columns 2, 4, 6, 8, row 2 holds 5-8 in columns 1, 3, 5, 7, and so on; "
                 "Black starts on 1-12. A FEN is \"B:W18,24,K10:B12,K22\": the side to move, then each "
                 "side's squares, K for a king (a range such as B1-12 lists men). history lists the "
                 "positions since the last capture or man's move, oldest first (repetition draws count "
                 "them); each must lead to the next by one king's step (with man_move_resets false: since "
                 "the last capture, by one step).",
    initial_state={"board": START_BOARD, "to_move": "b", "history": []},
    move_format="PDN: \"11-15\" for a step; \"22x15\" or \"26x17x10\" for a capture through each "
                "landing square (\"26x10\" is accepted when only one path joins the two squares)",
    example_request={"game": "checkers", "state": {"fen": "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29"},
                     "algorithm": {"name": "alphabeta", "depth": 8}, "time_limit_ms": 1000},
    players=player_ids(PLAYER_INFO),
    player_info=PLAYER_INFO,
    history_field="history",
    conventions="The players' ids are the board's men, b (Black, first, on 1-12 at the start) and w (White); "
                "their kings are B and W, and a PDN FEN writes the side to move as B or W. Squares keep PDN's "
                "numbers 1-32 (row 1, the top, holds 1-4) and moves PDN's notation (\"11-15\", \"22x15\"). "
                "history holds earlier positions (PDN FENs), not moves.",
    chance=NO_CHANCE,
    zero_sum=True,
    alternating=True,           # a multi-jump is one move, and there are no passes: a player stuck loses
    outcomes=True,
    utility_bounds=(-1.0, 1.0),
    max_length=IRREVERSIBLE_MOVES + (IRREVERSIBLE_MOVES + 1) * MAX_NO_PROGRESS_PLIES,
    key_fixes_ply=False,        # a king's step adds nothing: the position does not tell the ply
    value_unit="the utility +1 (win), 0 (draw), -1 (loss) for the player to move when proven; otherwise a heuristic estimate strictly inside (-1, 1) (MCTS: the mean playout utility)",
    value_scale="outcome",
    move_schema={"type": "string", "pattern": "^[0-9]{1,2}(-[0-9]{1,2}|(x[0-9]{1,2})+)$"},
    options=(NO_PROGRESS_PLIES, MAN_MOVE_RESETS),
    native_core=True,
    sample_states=(
        {"fen": "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29"},
        {"fen": "W:W9,10,11,19,K2:B5,6,13,14,15,22,K31"},
        {"fen": "W:W27,K19:B7,8,14,15,23,24,K30"},
        {"board": ["........", "B.......", "........", "........", ".....W..", "....W...", "........", "......B."],
         "to_move": "w", "history": ["B:WK19,K23:BK1,K32", "W:WK19,K23:BK5,K32", "B:WK23,K24:BK5,K32",
                                     "W:WK23,K24:BK1,K32", "B:WK19,K23:BK1,K32"]},
    ),
)


class Checkers(Game):
    """English checkers. Utilities: +1 for a win, -1 for a loss, 0 for a draw. ``limit`` is the
    ``no_progress_plies`` rule: the game is drawn after that many plies in a row without a capture or
    (when ``man_move_resets``, the default) a man's move."""

    id = GAME_ID
    game_type = GAME_TYPE
    capabilities = frozenset({EVALUATION, MOVE_ORDERING, HASHING, PLIES_BOUND})

    def __init__(self, limit: int = DEFAULT_NO_PROGRESS_PLIES, man_move_resets: bool = DEFAULT_MAN_MOVE_RESETS):
        self.limit = limit
        self.man_move_resets = man_move_resets

    # --- the rules -------------------------------------------------------------------------------

    def to_move(self, state):
        return state[TURN]

    def actions(self, state):
        return generate(*state[POSITION])

    def result(self, state, move):
        black, white, kings, turn, history, _ = state
        frm, to, captured, _ = move
        if turn == BLACK:
            nb, nw = black ^ frm ^ to, white ^ captured
        else:
            nb, nw = black ^ captured, white ^ frm ^ to
        if frm & kings:
            nk = (kings ^ frm ^ to) & ~captured
        else:
            nk = kings & ~captured | to & CROWN[turn]
        if captured or self.man_move_resets and not frm & kings:      # the count starts again
            return nb, nw, nk, 1 - turn, (), False
        return make_state(nb, nw, nk, 1 - turn, history + (position_key(black, white, kings, turn),), self.limit)

    def is_terminal(self, state):
        return state[DRAWN] or stuck(*state[POSITION])

    def utility(self, state, player):
        """-1 for the player to move when they cannot move (that comes first: a player left without a
        move on the ply that completes a draw has lost), 0 for a draw, +1 for the other player."""
        if not stuck(*state[POSITION]):
            return 0.0
        return -1.0 if player == state[TURN] else 1.0

    def end_reason(self, state):
        """The player to move cannot move (no piece left, or every one blocked), or which draw rule."""
        black, white, kings, turn, history, _ = state
        if stuck(black, white, kings, turn):
            side = ("Black", "White")[turn]
            return f"{side} {'has no pieces left' if not (black, white)[turn] else 'cannot move'}"
        if len(history) >= self.limit:
            return f"{self.limit} plies without a capture" + (" or a man's move" if self.man_move_resets else "")
        return "threefold repetition"

    def key(self, state):
        """What the rest of the game depends on: the position, the plies counted towards the no-progress
        draw, and (in ascending order, so that move orders that transpose share an entry) the earlier
        positions that can still come back, those with the current position's men."""
        black, white, kings, turn, history, _ = state
        if not history:
            return black, white, kings, turn
        men = (black | white << BOARD_BITS) & ~(kings | kings << BOARD_BITS)
        since = len(history)           # they come after the last man's move: men never come back
        while since and men_of(history[since - 1]) == men:
            since -= 1
        return black, white, kings, turn, len(history), tuple(sorted(history[since:]))

    # --- knowledge for searches ------------------------------------------------------------------

    def ordered_actions(self, state):
        """The legal moves, likeliest best first: captures taking the most (a king counting twice),
        else a man's crowning step first; ties in natural order."""
        moves = generate(*state[POSITION])
        if len(moves) < 2:
            return moves
        kings = state[KINGS]
        if moves[0][2]:
            return sorted(moves, key=lambda m: -(m[2].bit_count() + (m[2] & kings).bit_count()))
        crown = CROWN[state[TURN]]
        crowning = [m for m in moves if m[1] & crown and not m[0] & kings]
        if crowning:
            return crowning + [m for m in moves if m not in crowning]
        return moves

    def evaluate(self, state, player):
        """For depth-limited play: the position is first played out along its forced captures, a
        quiescence search without standing pat (a capture cannot be declined): where the player to move
        must capture, the value is the best of the captures, up to ``QUIESCENCE_PLIES`` plies deep. An
        end of the game met on the way counts ``NEAR_WIN`` (or 0), so that evaluations stay strictly
        inside the utilities; a quiet position of two kings against one that the two win before the
        no-progress draw counts ``TABLE_WIN`` less a thousandth for each ply the win takes
        (:mod:`engine.games.checkers.kings`); any other gets :func:`static_value`, less as its
        no-progress count runs (:meth:`urgency`). Exact on terminal states."""
        if self.is_terminal(state):
            return self.utility(state, player)
        value = self.quiescent(state, QUIESCENCE_PLIES)
        return value if player == state[TURN] else -value

    def quiescent(self, state, plies: int) -> float:
        """The value of a live ``state`` for its player to move, its forced captures played out."""
        black, white, kings, turn, history, _ = state
        me, opp = (black, white) if turn == BLACK else (white, black)
        if plies and can_capture(me, opp, kings, turn, ON_BOARD & ~(black | white)):
            best = -1.0
            for move in generate(black, white, kings, turn):
                child = self.result(state, move)
                if self.is_terminal(child):
                    value = NEAR_WIN * self.utility(child, turn)
                else:
                    value = -self.quiescent(child, plies - 1)
                if value > best:
                    best = value
            return best
        known = plies_to_win(black, white, kings, turn)
        if known is not None and known[1] <= self.limit - len(history):
            winner, plies = known
            return (TABLE_WIN - plies / 1000) * (1 if winner == turn else -1)
        value = static_value(black, white, kings) * self.urgency(len(history))
        return value if turn == BLACK else -value

    def urgency(self, counted: int) -> float:
        """How much of a quiet position's worth is left with ``counted`` plies already towards the
        no-progress draw: all of it on a fresh count, half of it when the draw is one ply away, so that
        the side ahead makes its progress (a capture, or a man's move where that starts the count
        again) before the draw comes within the search's sight."""
        return 1 - counted / (2 * self.limit)

    def plies_bound(self, state):
        """Every man can move at most as many times as he has rows to go, and every capture takes one of
        the pieces (the game ends before the last one goes); between two such moves, and after the last,
        come fewer than ``limit`` plies without one, the plies since the last one included."""
        black, white, kings, _, history, _ = state
        irreversible = (black | white).bit_count() - 1
        for men, masks in ((black & ~kings, ROWS_TO_GO[BLACK]), (white & ~kings, ROWS_TO_GO[WHITE])):
            irreversible += sum((men & m).bit_count() for m in masks)
        return irreversible + (irreversible + 1) * self.limit - len(history)

    # --- the compiled core ---------------------------------------------------------------------------

    def native_state(self, state):
        """The state as the compiled core reads it (native/src/bindings/checkers.cpp): ``(black, white,
        kings, turn, history, no_progress_plies, man_move_resets)``, the history as positions (black, white,
        kings, turn); the core keeps of it what can still matter."""
        black, white, kings, turn, history, _ = state
        return black, white, kings, turn, tuple(map(position_of, history)), self.limit, self.man_move_resets

    def from_native_move(self, code: int) -> tuple:
        """A move as the compiled core numbers it (native/src/games/checkers.hpp): bits 0-4 the starting
        square less one, bit 5 set for a capture, then two bits for each step's or jump's direction (an
        index into :data:`NATIVE_SHIFTS`), the first lowest, under a sentinel bit."""
        at = start = BIT[(code & 31) + 1]
        digits, captured, path = code >> 6, 0, [start]
        for i in range((digits.bit_length() - 1) // 2):
            shift = NATIVE_SHIFTS[digits >> 2 * i & 3]
            if code & 32:
                over = shifted(at, shift)
                captured |= over
                at = shifted(over, shift)
            else:
                at = shifted(at, shift)
            path.append(at)
        return start, at, captured, tuple(path) if len(path) > 2 else None

    # --- JSON ------------------------------------------------------------------------------------

    def move_to_json(self, move):
        frm, to, captured, path = move
        if path is not None:
            return "x".join(str(SQUARE[b]) for b in path)
        return f"{SQUARE[frm]}{'x' if captured else '-'}{SQUARE[to]}"

    def move_from_json(self, value, state):
        """The legal move that the PDN ``value`` names: the whole path (``"26x17x10"``), or for a jump
        just its first and last squares (``"26x10"``) when only one legal path joins them."""
        moves = self.actions(state)
        legal = [self.move_to_json(m) for m in moves]
        if not isinstance(value, str) or not MOVE_RE.match(value):
            raise IllegalMove(f"{value!r} is not a move in PDN: \"11-15\" for a step, \"22x15\" or "
                              f"\"26x17x10\" for a capture through each landing square, squares 1-32")
        squares = [int(n) for n in re.split("[-x]", value)]
        if any(n not in SQUARES for n in squares):
            raise IllegalMove(f"{value!r} names a square outside 1-32")
        text = ("x" if "x" in value else "-").join(map(str, squares))          # "09-13" is "9-13"
        if text in legal:
            return moves[legal.index(text)]
        if "-" in value and moves and moves[0][2]:
            raise IllegalMove(f"{value!r} skips a capture: captures are forced here; legal: {legal}")
        if "x" in value and moves and not moves[0][2]:
            raise IllegalMove(f"{value!r} is not a jump here: there is no capture; legal: {legal}")
        if "x" in value and len(squares) == 2:
            ends = [m for m in moves if (SQUARE[m[0]], SQUARE[m[1]]) == (squares[0], squares[1])]
            if len(ends) == 1:
                return ends[0]
            if ends:
                raise IllegalMove(f"{value!r} is ambiguous: name every landing square, one of "
                                  f"{[self.move_to_json(m) for m in ends]}")
        raise IllegalMove(f"{value!r} is not a legal move here; legal: {legal}")

    def state_to_json(self, state):
        black, white, kings, turn, history, _ = state
        answer: dict[str, Any] = {"board": board_rows(black, white, kings), "to_move": COLOURS[turn],
                  "history": [fen_of(*position_of(key)) for key in history]}
        options = self.options_json()
        if options:
            answer["options"] = options
        return answer

    def options_json(self) -> dict:
        """The draw options other than the defaults: a state carries them, since its history is read by
        them (a state sent back without them is read as it was written)."""
        options = {}
        if self.limit != DEFAULT_NO_PROGRESS_PLIES:
            options["no_progress_plies"] = self.limit
        if self.man_move_resets != DEFAULT_MAN_MOVE_RESETS:
            options["man_move_resets"] = self.man_move_resets
        return options


QUIESCENCE_PLIES = 8
NEAR_WIN = 0.999
TABLE_WIN = 0.99          # two kings' proven win over one (kings.py), less a thousandth a ply


def static_value(black: int, white: int, kings: int) -> float:
    """A quiet position's worth for Black in points (a man 100), squashed into (-1, 1):

    - material, a king 135, scaled by ``28 / (pieces on the board + 4)``: the same lead weighs more with
      fewer pieces left, so the side ahead trades down (and the side behind avoids trades);
    - advancement: 3 for a man past his side's first three rows, 6 in the two rows before his crown;
    - back-rank guard: 5 for each man still on his own back row while the opponent has men to crown;
    - centre control: 4 for each piece on the eight central squares;
    - mobility: 2 for each plain step the side has;
    - in an end game (8 pieces or fewer), the side ahead brings its kings near the enemy: 3 off for each
      row or column between a king and the nearest enemy piece, and 10 off for each enemy king in a
      double corner (squares 1 and 5, 28 and 32), where a king behind holds out longest (elsewhere he is
      trapped sooner)."""
    empty = ON_BOARD & ~(black | white)
    black_men, white_men = black & ~kings, white & ~kings
    black_kings, white_kings = black & kings, white & kings
    material = (100 * (black_men.bit_count() - white_men.bit_count())
                + 135 * (black_kings.bit_count() - white_kings.bit_count()))
    pieces = (black | white).bit_count()
    score = material * 28 / (pieces + 4)
    (b_far, b_near), (w_far, w_near) = ADVANCED
    score += 3 * ((black_men & b_far).bit_count() + (black_men & b_near).bit_count()
                  - (white_men & w_far).bit_count() - (white_men & w_near).bit_count())
    if white_men:
        score += 5 * (black_men & BACK_RANK[BLACK]).bit_count()
    if black_men:
        score -= 5 * (white_men & BACK_RANK[WHITE]).bit_count()
    score += 4 * ((black & CENTRE).bit_count() - (white & CENTRE).bit_count())
    score += 2 * (step_count(black, kings, BLACK, empty) - step_count(white, kings, WHITE, empty))
    if pieces <= 8 and material:
        hunters, prey = (black_kings, white) if material > 0 else (white_kings, black)
        distance = sum(min(max(abs(r - pr), abs(c - pc)) for pr, pc in map(COORD.__getitem__, bits_of(prey)))
                       for r, c in map(COORD.__getitem__, bits_of(hunters)))
        sheltered = (prey & kings & DOUBLE_CORNERS).bit_count()
        score -= (3 * distance + 10 * sheltered) if material > 0 else -(3 * distance + 10 * sheltered)
    return score / (abs(score) + 300)


# The directions of the compiled core's move codes: the shift of one diagonal step (a jump takes two).
NATIVE_SHIFTS = (-5, -4, 4, 5)


def shifted(board: int, by: int) -> int:
    return board << by if by > 0 else board >> -by


MOVE_RE = re.compile(r"^[0-9]{1,2}(-[0-9]{1,2}|(x[0-9]{1,2})+)$")


@lru_cache(maxsize=16)
def game_for(limit: int, man_move_resets: bool) -> Checkers:
    return Checkers(limit, man_move_resets)


def board_rows(black: int, white: int, kings: int) -> list:
    """The 8 x 8 diagram, top row (squares 1-4) first."""
    grid = [["."] * 8 for _ in range(8)]
    for n in SQUARES:
        b = BIT[n]
        if b & (black | white):
            ch = "b" if b & black else "w"
            r, c = row_col(n)
            grid[r][c] = ch.upper() if b & kings else ch
    return ["".join(row) for row in grid]


def fen_of(black: int, white: int, kings: int, turn: int) -> str:
    """The PDN FEN of a position: ``"B:W18,24,K10:B12,K22"`` (the side to move, then each side's men
    and its kings, ``K`` before a king's square)."""
    def side(letter, pieces):
        men = [str(n) for n in squares_of(pieces & ~kings)]
        crowned = [f"K{n}" for n in squares_of(pieces & kings)]
        return letter + ",".join(men + crowned)
    return f"{'BW'[turn]}:{side('W', white)}:{side('B', black)}"


# --- loading a JSON state ---------------------------------------------------------------------------

def parse_board(board) -> tuple:
    """``(black, white, kings)`` from 8 strings of 8 (``b``, ``B``, ``w``, ``W``, ``.``), top row first."""
    if not isinstance(board, list) or len(board) != 8:
        raise InvalidState("board is a list of 8 strings of 8 characters, top row (squares 1-4) first",
                           field="state.board")
    black = white = kings = 0
    for r, row in enumerate(board):
        field = f"state.board[{r}]"
        if not isinstance(row, str) or len(row) != 8:
            raise InvalidState("every row is a string of 8 characters", field=field)
        for c, ch in enumerate(row):
            if ch not in "bBwW.":
                raise InvalidState(f"column {c + 1} is {ch!r}; cells are 'b', 'B', 'w', 'W' or '.'", field=field)
            if ch == ".":
                continue
            if (r, c) not in AT:
                raise InvalidState(f"column {c + 1} is a light square: pieces stand on the dark squares "
                                   f"(row {r + 1} uses columns {'2, 4, 6, 8' if r % 2 == 0 else '1, 3, 5, 7'})",
                                   field=field)
            b = BIT[AT[r, c]]
            if ch in "bB":
                black |= b
            else:
                white |= b
            if ch in "BW":
                kings |= b
    return black, white, kings


FEN_RE = re.compile(r"^([BW]):([BW])([^:]*):([BW])([^:]*?)\.?$")
FEN_ITEM = re.compile(r"^(K?)([0-9]{1,2})(?:-([0-9]{1,2}))?$")


def parse_fen(fen, field: str) -> tuple[int, int, int, int]:
    """``(black, white, kings, turn)`` of a PDN FEN such as ``"B:W18,24,K10:B12,K22"`` (a range such as
    ``B1-12`` stands for men on every square in it)."""
    match = FEN_RE.match(fen.replace(" ", "")) if isinstance(fen, str) else None
    if not match or match.group(2) == match.group(4):
        raise InvalidState(f"{fen!r} is not a PDN FEN: the side to move, then each side's pieces, as in "
                           f"\"B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29\"", field=field)
    pieces, kings = {"B": 0, "W": 0}, 0
    for colour, listed in (match.group(2, 3), match.group(4, 5)):
        for item in filter(None, listed.split(",")):
            parts = FEN_ITEM.match(item)
            if not parts:
                raise InvalidState(f"{item!r} is not a square (1-32), a king (K22) or a range (1-12)", field=field)
            king, first, last = parts.group(1), int(parts.group(2)), int(parts.group(3) or parts.group(2))
            if not (1 <= first <= last <= 32) or (king and last != first):
                raise InvalidState(f"{item!r}: squares are 1-32, a range runs upwards, a king is one square",
                                   field=field)
            for n in range(first, last + 1):
                if BIT[n] & (pieces["B"] | pieces["W"]):
                    raise InvalidState(f"square {n} is listed twice", field=field)
                pieces[colour] |= BIT[n]
                if king:
                    kings |= BIT[n]
    return pieces["B"], pieces["W"], kings, "BW".index(match.group(1))


def check_position(black: int, white: int, kings: int, turn: int, field: str) -> None:
    """Reject positions no game reaches: more than 12 pieces a side, a man on his crowning row, an empty
    board, or no pieces for the side that has just moved."""
    for side, pieces, crown in (("Black", black, CROWN[BLACK]), ("White", white, CROWN[WHITE])):
        if pieces.bit_count() > 12:
            raise InvalidState(f"{side} has {pieces.bit_count()} pieces; a side has at most 12", field=field)
        uncrowned = pieces & crown & ~kings
        if uncrowned:
            raise InvalidState(f"{side} has a man on its crowning row (square(s) {squares_of(uncrowned)}): "
                               f"a man that gets there is crowned", field=field)
    if not black | white:
        raise InvalidState("the board is empty", field=field)
    if not (white if turn == BLACK else black):
        raise InvalidState(f"{'White' if turn == BLACK else 'Black'} has just moved but has no pieces",
                           field=field)


def parse_history(history, current: tuple, game: Checkers) -> tuple:
    """The keys of the positions in ``history`` (PDN FENs, oldest first), checked: each is followed by
    the next (the last by the current position) through one legal king's step (or any step, not a
    capture, when a man's move does not start the count again), and the game was not already over at
    any of them."""
    if not isinstance(history, list):
        raise InvalidState("history is a list of PDN FEN strings, oldest first", field="state.history")
    if len(history) > game.limit:
        raise InvalidState(f"{len(history)} plies without a capture or a man's move: the game was drawn "
                           f"after {game.limit} (options.no_progress_plies)", field="state.history")
    positions = []
    for i, fen in enumerate(history):
        field = f"state.history[{i}]"
        position = parse_fen(fen, field)
        check_position(*position, field)
        positions.append(position)
    keys = [position_key(*p) for p in positions]
    for i, position in enumerate(positions):
        field = f"state.history[{i}]"
        if keys[:i].count(keys[i]) >= 2:
            raise InvalidState("this position had already occurred twice: the game was drawn by repetition",
                               field=field)
        after = positions[i + 1] if i + 1 < len(positions) else current
        state = make_state(*position, (), game.limit)
        if not any(not m[2] and (m[0] & position[2] or not game.man_move_resets)
                   and game.result(state, m)[:4] == after for m in game.actions(state)):
            since = "capture or man's move" if game.man_move_resets else "capture (man_move_resets is false)"
            step = "king's step" if game.man_move_resets else "step"
            raise InvalidState(f"no {step} leads from this position to the "
                               f"{'next one' if i + 1 < len(positions) else 'current position'}: the history "
                               f"lists the positions since the last {since}", field=field)
    return tuple(keys)


def parse_limit(value, field: str = "options.no_progress_plies") -> int:
    if value is None:
        return DEFAULT_NO_PROGRESS_PLIES
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_NO_PROGRESS_PLIES:
        raise AlgorithmMismatch(f"no_progress_plies is an integer from 1 to {MAX_NO_PROGRESS_PLIES}", field=field)
    return value


def parse_resets(value, field: str = "options.man_move_resets") -> bool:
    if value is None:
        return DEFAULT_MAN_MOVE_RESETS
    if not isinstance(value, bool):
        raise AlgorithmMismatch("man_move_resets is true or false", field=field)
    return value


def load(state_json, limits=None, no_progress_plies=None, man_move_resets=None, **_):
    """``(game, state)`` from ``{"board", "to_move", "history"?, "options"?}``, ``{"fen", "history"?,
    "options"?}`` or ``{}`` (the start); :class:`InvalidState` names the field at fault. The state's
    ``options`` (the draw options its history was written under, as answers give them) apply where the
    request gives none of its own."""
    state_options = state_json.get("options", {})
    if not isinstance(state_options, dict) or set(state_options) - {"no_progress_plies", "man_move_resets"}:
        raise InvalidState("options is an object with no_progress_plies and man_move_resets, as answers give "
                           "it", field="state.options")
    if no_progress_plies is None:
        no_progress_plies = parse_limit(state_options.get("no_progress_plies"), "state.options.no_progress_plies")
    if man_move_resets is None:
        man_move_resets = parse_resets(state_options.get("man_move_resets"), "state.options.man_move_resets")
    game = game_for(parse_limit(no_progress_plies), parse_resets(man_move_resets))
    state_json = {k: v for k, v in state_json.items() if k != "options"}
    unknown = set(state_json) - {"board", "to_move", "fen", "history"}
    if unknown:
        raise InvalidState(f"unknown keys {sorted(unknown)}; a checkers state has board and to_move, or fen, "
                           f"and optionally history and options")
    if "board" in state_json and "fen" in state_json:
        raise InvalidState("give board (with to_move) or fen, not both")
    if "fen" in state_json:
        if "to_move" in state_json:
            raise InvalidState("a FEN names the side to move itself", field="state.to_move")
        field = "state.fen"
        position = parse_fen(state_json["fen"], field)
    elif "board" in state_json:
        field = "state.board"
        to_move = state_json.get("to_move")
        if to_move not in ("b", "w"):
            raise InvalidState("to_move is \"b\" or \"w\"", field="state.to_move")
        position = (*parse_board(state_json["board"]), COLOURS.index(to_move))
    else:
        if set(state_json):
            raise InvalidState("without a board or a fen the state is the start, which has no "
                               f"{sorted(state_json)[0]}")
        return game, make_state(*START, 0, BLACK, (), game.limit)
    check_position(*position, field)
    history = parse_history(state_json.get("history", []), position, game)
    return game, make_state(*position, history, game.limit)


table()      # the two-kings table is built here, at import, so that no search pays for it in its time
