"""python-chess at the edges: FEN in and out, the moves of a JSON state, SAN for the responses.

The search never calls python-chess; these functions convert between its boards and the engine's states
(:mod:`.position`) when a request is read and when an answer is written.
"""
import io
import re
import time

import chess
import chess.pgn
import chess.polyglot

from engine.errors import IllegalMove, InvalidState
from engine.games.chess.board import (EMPTY_BOARD, OUR_A1, OUR_H1, PROMOTIONS, SQUARES, THEIR_A8, THEIR_H8,
                                      move_code, square_name, square_of, turned, turned_rights, uci)
from engine.games.chess.evaluation import totals
from engine.games.chess.pgn_text import AFTER_END, TAG, Unread, first_unread
from engine.games.chess.position import (BOARD, CLOCK, EP, HISTORY, KEY, LINE, PLY, REASONS, RIGHTS, STATUS,
                                         build, moves, play)

MAX_MOVES = 2000                                  # moves a JSON state may carry (a long game has ~300)
MAX_PGN_CHARS = 200_000                           # a PGN state's text (a long annotated game has ~20 000)


def from_board(board: chess.Board) -> tuple:
    """The engine's state for a python-chess board (its move stack is not read: no history)."""
    cells = list(EMPTY_BOARD)
    for k, s in enumerate(SQUARES):
        piece = board.piece_at(chess.square(k % 8, 7 - k // 8))
        if piece is not None:
            cells[s] = piece.symbol()
    absolute = "".join(cells)
    rights = 0
    for square, bit in ((chess.A1, OUR_A1), (chess.H1, OUR_H1), (chess.H8, THEIR_H8), (chess.A8, THEIR_A8)):
        if board.castling_rights & chess.BB_SQUARES[square]:
            rights |= bit
    ep = 0
    if board.ep_square is not None and board.has_legal_en_passant():
        ep = square_of(chess.square_name(board.ep_square))
    ply = 2 * (board.fullmove_number - 1) + (board.turn == chess.BLACK)
    if board.turn == chess.BLACK:
        absolute, rights, ep = turned(absolute), turned_rights(rights), 119 - ep if ep else 0
    return build(absolute, rights, ep, board.halfmove_clock, ply, (), (), *totals(absolute, ply & 1))


def fen(state: tuple) -> str:
    return to_board(state).fen()


def polyglot_key(state: tuple) -> int:
    """The Polyglot Zobrist key of the state's position (python-chess's ``chess.polyglot.zobrist_hash``)."""
    return chess.polyglot.zobrist_hash(to_board(state))


def to_board(state: tuple) -> chess.Board:
    """A python-chess board of the state's position (without its history)."""
    return board_of(state[BOARD], state[RIGHTS], state[EP], state[CLOCK], state[PLY])


def board_of(view: str, rights: int, ep: int, clock: int, ply: int) -> chess.Board:
    black = ply & 1
    absolute = turned(view) if black else view
    if black:
        rights, ep = turned_rights(rights), 119 - ep if ep else 0
    rows = []
    for r in range(8):
        row, empty = "", 0
        for c in absolute[21 + 10 * r:29 + 10 * r]:
            if c == ".":
                empty += 1
            else:
                row += (str(empty) if empty else "") + c
                empty = 0
        rows.append(row + (str(empty) if empty else ""))
    castling = "".join(flag for bit, flag in ((OUR_H1, "K"), (OUR_A1, "Q"), (THEIR_H8, "k"), (THEIR_A8, "q"))
                       if rights & bit) or "-"
    ep_name = square_name(ep) if ep else "-"
    return chess.Board(f"{'/'.join(rows)} {'bw'[not black]} {castling} {ep_name} {clock} {ply // 2 + 1}")


def parse_fen(text, field: str = "state.fen") -> chess.Board:
    """A python-chess board for a FEN that describes a legal position; :class:`InvalidState` on
    ``field`` otherwise, in python-chess's words where it has them."""
    if not isinstance(text, str):
        raise InvalidState("fen is a string in Forsyth-Edwards Notation", field=field)
    try:
        board = chess.Board(text)
    except ValueError as e:
        raise InvalidState(f"not a valid FEN: {e}", field=field) from None
    status = board.status()
    if status != chess.STATUS_VALID:
        problems = [str(flag.name).lower().replace("_", " ") for flag in chess.Status if flag and status & flag]
        raise InvalidState(f"not a legal position: {', '.join(problems)}", field=field)
    return board


UCI = re.compile(r"^[a-h][1-8][a-h][1-8][qrbnkpQRBNKP]?$")


def load_state(state_json) -> tuple:
    """The engine's state for a chess state in any of its forms: a FEN string; ``{"fen"?, "moves"?}``, the
    FEN (default: the standard start) and the moves played from it (a list, or one string of moves
    separated by spaces; each in UCI or SAN), each checked by python-chess; or ``{"pgn"}``, a game's
    final position with its moves as history."""
    return load_with_board(state_json)[0]


def load_with_board(state_json) -> tuple:
    """``(state, board)``: the state and a python-chess board of its position (None for moves written in
    UCI alone: a board is built, from the first move in SAN on, only to read SAN, so that a long UCI history
    costs the engine's moves only)."""
    board: chess.Board | None
    if isinstance(state_json, str):
        board = parse_fen(state_json, "state")
        return from_board(board), board
    if not isinstance(state_json, dict):
        raise InvalidState("a chess state is an object ({\"fen\"?, \"moves\"?} or {\"pgn\"}) or a FEN string")
    if "pgn" in state_json:
        unknown = set(state_json) - {"pgn"}
        if unknown:
            raise InvalidState(f"unknown keys {sorted(unknown)} beside pgn; a PGN state has pgn alone")
        board, played = parse_pgn(state_json["pgn"])
        state = from_board(board)
        for move in played:
            state = play(state, code_of(move))
            board.push(move)
        return state, board
    unknown = set(state_json) - {"fen", "moves"}
    if unknown:
        raise InvalidState(f"unknown keys {sorted(unknown)}; a chess state has fen and moves (or pgn alone)")
    state = from_board(parse_fen(state_json.get("fen", chess.STARTING_FEN)))
    played, board = move_list(state_json.get("moves", [])), None
    for n, text in enumerate(played):
        field = f"state.moves[{n}]"
        if state[STATUS]:
            raise InvalidState(f"the game is already over ({REASONS[state[STATUS]]}); {text!r} cannot be "
                               "played", field=field)
        if board is None and not is_uci(text):
            board = to_board(state)
        code = parse_move(text, state, field, InvalidState, board)
        state = play(state, code)
        if board is not None:
            board.push(chess.Move.from_uci(uci(code)))
    return state, board


def move_list(played) -> list:
    """The moves of a state: a list of strings, or one string of moves separated by white space."""
    if isinstance(played, str):
        played = played.split()
    if not isinstance(played, list):
        raise InvalidState("moves is a list of moves (UCI \"e2e4\" or SAN \"e4\") or one string of them "
                           "separated by spaces", field="state.moves")
    if len(played) > MAX_MOVES:
        raise InvalidState(f"at most {MAX_MOVES} moves; got {len(played)}", field="state.moves")
    return played


def parse_pgn(text, field: str = "state.pgn") -> tuple:
    """``(board, moves)``: the start of a PGN game's main line (its FEN tag, else the standard start) and
    its moves, checked by python-chess; :class:`InvalidState` on ``field`` otherwise, naming the first
    word that is no legal move (or no PGN at all: python-chess passes over those without a word)."""
    if not isinstance(text, str):
        raise InvalidState("pgn is a string: a game in Portable Game Notation", field=field)
    if len(text) > MAX_PGN_CHARS:
        raise InvalidState(f"at most {MAX_PGN_CHARS} characters; got {len(text)}", field=field)
    text = main_line(text)
    game = read_pgn(text, field)
    unread = first_unread(text)
    if unread is not None:
        earlier = read_pgn(unread.before, field)
        if earlier is not None and earlier.errors:
            raise InvalidState(error_message(earlier), field=field)
        raise InvalidState(unread_message(unread, earlier), field=field)
    if game is None:
        raise InvalidState("no game in the PGN", field=field)
    if game.errors:
        raise InvalidState(error_message(game), field=field)
    board = game.board()
    if type(board) is not chess.Board:
        raise InvalidState(f"not a game of standard chess: its Variant tag is {game.headers['Variant']!r}",
                           field=field)
    if board.status() != chess.STATUS_VALID:
        raise InvalidState("the FEN tag is not a legal position", field=field)
    played = list(game.mainline_moves())
    if len(played) > MAX_MOVES:
        raise InvalidState(f"at most {MAX_MOVES} moves; got {len(played)}", field=field)
    for move in played:
        if not move:
            raise InvalidState(f"not a valid PGN: {due(board)} is a null move, which is no legal move", field=field)
        board.push(move)
    return game.board(), played


def read_pgn(text: str, field: str):
    """python-chess's game of the PGN ``text`` (None if it holds none), its errors collected."""
    try:
        return chess.pgn.read_game(io.StringIO(text), Visitor=QuietBuilder)
    except Exception as e:                  # python-chess's reader raises IndexError too on some bad input
        raise InvalidState(f"not a valid PGN: {e}", field=field) from None


MOVE_ERRORS = (chess.IllegalMoveError, chess.AmbiguousMoveError, chess.InvalidMoveError)


def error_message(game: chess.pgn.Game) -> str:
    """The first error python-chess met reading ``game``, with the move it was reading (after an error in
    the moves it reads no further, so the game read ends where it stands)."""
    error = game.errors[0]
    if isinstance(error, MOVE_ERRORS):
        return f"not a valid PGN: {due(game.end().board())}: {error}"
    return f"not a valid PGN: {error}"


def unread_message(unread: Unread, earlier: chess.pgn.Game | None) -> str:
    """Why the PGN's first unread word is refused; ``earlier``: the game read before it, if any."""
    if unread.why == TAG:
        return f"not a valid PGN: {unread.word!r} is not a tag pair such as [Event \"name\"]"
    if unread.why == AFTER_END:
        return f"not a valid PGN: {unread.word!r} follows the blank line that ends the game's moves"
    board = chess.Board() if earlier is None else earlier.end().board()
    return (f"not a valid PGN: cannot read {unread.word!r} ({due(board)}): a move is written in SAN, such as "
            "\"e4\", \"Nf3\" or \"O-O\"")


def due(board: chess.Board) -> str:
    """The move due in ``board``'s position, such as "White's move 2"."""
    return f"{'White' if board.turn == chess.WHITE else 'Black'}'s move {board.fullmove_number}"


def main_line(text: str) -> str:
    """The PGN ``text`` without its variations (the parenthesised parts outside tags and comments), which
    a state does not use and which cost python-chess a board per move to read."""
    out, depth, i, n = [], 0, 0, len(text)
    closing = {"{": "}", ";": "\n", "[": "]"}
    while i < n:
        c = text[i]
        if c in closing and (c != "[" or depth == 0):
            j = tag_end(text, i) if c == "[" else text.find(closing[c], i + 1)
            j = n if j < 0 else j + 1
            if depth == 0:
                out.append(text[i:j])
            i = j
            continue
        if c == "(":
            depth += 1
        elif c == ")" and depth:
            depth -= 1
        elif depth == 0:
            out.append(c)
        i += 1
    return "".join(out)


def tag_end(text: str, i: int) -> int:
    """The index of the ``]`` that closes the tag pair opened at ``i`` (its quoted value may hold one)."""
    quoted, j = False, i + 1
    while j < len(text):
        c = text[j]
        if c == "\\" and quoted:
            j += 2
            continue
        if c == '"':
            quoted = not quoted
        elif c == "]" and not quoted:
            return j
        j += 1
    return -1


class QuietBuilder(chess.pgn.GameBuilder):
    """python-chess's game builder without its log line for each error (a client's bad PGN is a 422)."""

    def handle_error(self, error: Exception) -> None:
        self.game.errors.append(error)


def code_of(move: chess.Move) -> int:
    """The engine's code of a legal python-chess move."""
    return move_code(square_of(chess.square_name(move.from_square)), square_of(chess.square_name(move.to_square)),
                     PROMOTIONS.index(chess.piece_symbol(move.promotion).upper()) if move.promotion else 0)


def is_uci(text) -> bool:
    """Whether a move is written in UCI (as opposed to SAN)."""
    return isinstance(text, str) and UCI.match(text) is not None


def parse_move(text, state: tuple, field: str = "move", error=IllegalMove, board=None) -> int:
    """The legal move code for a move in UCI (``"e2e4"``, ``"e7e8q"``, the promotion in either case) or
    SAN (``"e4"``, ``"Nf3"``, ``"O-O"``, ``"e8=Q"``); ``error`` (:class:`IllegalMove`, or
    :class:`InvalidState` for the moves of a state) naming ``field`` otherwise. ``board``: a python-chess
    board of ``state``, if the caller has one (SAN is read on it)."""
    if not isinstance(text, str):
        raise error("a move is a string in UCI (\"e2e4\", \"e7e8q\") or SAN (\"e4\", \"Nf3\")", field=field)
    if not is_uci(text):
        return parse_san(text, state, field, error, board)
    try:
        move = chess.Move.from_uci(text[:4] + text[4:].lower())
    except ValueError:
        raise error(f"{text!r} is not UCI notation (such as \"e2e4\" or \"e7e8q\")", field=field) from None
    code = move_code(square_of(chess.square_name(move.from_square)), square_of(chess.square_name(move.to_square)),
                     promotion_code(move, text, field, error))
    if code not in moves(state):
        board = to_board(state)
        raise error(f"{text!r} is not a legal move in {board.fen()}", field=field)
    return code


def parse_san(text: str, state: tuple, field: str, error, board=None) -> int:
    if text in ("0000", "--", "Z0"):
        raise error(f"the null move {text!r} is not a legal move", field=field)
    board = to_board(state) if board is None else board
    try:
        move = board.parse_san(text)
    except chess.IllegalMoveError:
        raise error(f"{text!r} is not a legal move in {board.fen()}", field=field) from None
    except chess.AmbiguousMoveError:
        raise error(f"{text!r} is ambiguous in {board.fen()}", field=field) from None
    except ValueError:
        raise error(f"{text!r} is neither UCI (such as \"e2e4\", \"e7e8q\") nor SAN (such as \"e4\", "
                    "\"Nf3\", \"O-O\")", field=field) from None
    if not move:
        raise error(f"the null move {text!r} is not a legal move", field=field)
    code = code_of(move)
    if code not in moves(state):
        raise error(f"{text!r} is not a legal move in {board.fen()}", field=field)
    return code


def promotion_code(move: chess.Move, text: str, field: str, error) -> int:
    """0 for no promotion, 1..4 for a knight, bishop, rook or queen; ``error`` naming ``field`` for a
    king or a pawn, which UCI spells ("e7e8k") but no pawn may become."""
    if not move.promotion:
        return 0
    letter = chess.piece_symbol(move.promotion).upper()
    if letter not in PROMOTIONS:
        raise error(f"{text!r} promotes to {chess.piece_name(move.promotion)}: a pawn promotes to a knight, "
                    "bishop, rook or queen (n, b, r or q)", field=field)
    return PROMOTIONS.index(letter)


def san(state: tuple, move: int) -> str:
    """``move`` in SAN. An answer writes every root move of one state so: the state's python-chess board
    is built once and kept until another state asks (``san`` restores the board it is given)."""
    board = LAST_BOARD.get(state[KEY])
    if board is None:
        LAST_BOARD.clear()
        board = LAST_BOARD[state[KEY]] = to_board(state)
    return board.san(chess.Move.from_uci(uci(move)))


def line_san(state: tuple, line, until: float | None = None) -> list:
    """The moves of ``line`` from ``state`` in SAN, on one python-chess board: all of them, or the first
    few (at least one) once ``time.perf_counter()`` passes ``until``."""
    board, out = to_board(state), []
    for move in line:
        m = chess.Move.from_uci(uci(move))
        out.append(board.san(m))
        if until is not None and time.perf_counter() > until:
            break
        board.push(m)
    return out


LAST_BOARD: dict[tuple, chess.Board] = {}                             # the key of the last state written in SAN -> its board


def history_json(state: tuple) -> dict:
    """``{"fen", "moves"}``: the position where the state's history starts and the moves since, so that
    loading it gives the state back, repetitions included."""
    history = state[HISTORY]
    if not history:
        return {"fen": fen(state), "moves": []}
    key = history[0]
    start = board_of(key[:120], ord(key[120]) - 48, ord(key[121]), state[CLOCK] - len(history),
                     state[PLY] - len(history))
    return {"fen": start.fen(), "moves": [uci(m) for m in state[LINE]]}


def pgn_with(text: str, move: int) -> str:
    """The PGN ``text`` (already checked) with ``move`` added to its main line; its tags and the main
    line's comments kept, its variations dropped, a finished game's result tag reset to ``*`` since the
    game goes on."""
    game = read_pgn(main_line(text), "state.pgn")
    assert game is not None  # the text was checked: it holds a game
    game.end().add_main_variation(chess.Move.from_uci(uci(move)))
    if "Result" in game.headers:
        game.headers["Result"] = "*"
    return str(game)
