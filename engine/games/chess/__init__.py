"""Chess: the rules of python-chess (FEN in, UCI and SAN out) on the engine's own fast positions.

python-chess reads and checks every FEN and every move a request carries and writes SAN for the answers
(:mod:`.notation`); the searches play on immutable 120-character boards (:mod:`.board`, :mod:`.position`)
whose move generator the tests check against python-chess by perft. The game ends by checkmate, stalemate,
insufficient material, the fifty-move rule (100 plies without a capture or pawn move, unless the last one
mated) or threefold repetition (the same position, side to move, castling and en passant rights, for the
third time since the state's history starts): as python-chess's ``outcome(claim_draw=True)`` once a draw
can be claimed from the position itself.

Utilities are +1 / 0 / -1; an evaluation is the tapered PeSTO score with pawn structure (:mod:`.evaluation`),
Fruit 2.1's piece activity and king safety (:mod:`.activity`) and threats to pieces (:mod:`.threats`), scaled
down where the side ahead has material that seldom wins (:mod:`.drawish`), in units of a hundred pawns,
strictly inside the utilities, and the API reports values in pawns (:meth:`Chess.value_to_json`): a won game
is 100.
"""
from engine.game import (ASPIRATION, EVALUATION, EXCHANGE, EXTENSIONS, FUTILITY, HASHING, MOVE_ORDERING, NULL_MOVE,
                         QUIESCENCE, REPETITION, Game)
from engine.errors import InvalidState
from engine.games.chess import drawish, nnue, notation
from engine.games.chess.activity import activity
from engine.games.chess.board import PROMOTIONS, attacked, uci
from engine.games.chess.evaluation import TABLES, blend, structure
from engine.games.chess.exchange import VICTIM as WORTH, exchange as static_exchange
from engine.games.chess.position import (BOARD, CHECK, CLOCK, EG, EP, HISTORY, KEY, KEYED_CLOCK, MG, PHASE, PLY, REASONS,
                                         REPEATS, RIGHTS, moves,
                                         STATUS, CHECKMATE, FLIP, ONGOING, noisy_moves, passed, play)
from engine.games.chess.threats import threats
from engine.registry import NO_CHANCE, GameOption, GameType, Player, player_ids

GAME_ID = "chess"
START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
CENTIPAWNS_PER_UNIT = 10_000                  # an evaluation of 1.0 would be a hundred pawns
PAWNS_PER_UNIT = CENTIPAWNS_PER_UNIT / 100
EVAL_LIMIT = 0.9                              # evaluations stay within +-90 pawns, inside the utilities
VICTIM = {**WORTH, "K": 0, ".": 0}  # the king is never taken; "." is no victim (a quiet promotion)
PROMOTION_GAIN = [0] + [VICTIM[p] - VICTIM["P"] for p in PROMOTIONS[1:]]
DELTA_MARGIN = 200                            # centipawns a capture may gain beyond its victim (PST swings)
NOISY_FIRST = 100_000                         # ordering: captures and promotions before every quiet move
ASPIRATION_WIDTH = 35 / CENTIPAWNS_PER_UNIT   # a third of a pawn each side of the last iteration's score
FUTILITY_MARGIN = 100 / CENTIPAWNS_PER_UNIT   # a pawn a ply: what a shallow search may move the evaluation

PLAYER_INFO = (Player("white", "White", "#ffffff"), Player("black", "Black", "#222222"))
CLASSIC, NNUE = "classic", "nnue"
EVALUATION_OPTION = GameOption(
    name="evaluation",
    schema={"type": "string", "enum": [CLASSIC, NNUE], "default": CLASSIC},
    description="the evaluation at the search's horizon: \"classic\" (default: PeSTO's tables, pawn structure, "
                "activity, king safety, threats) or \"nnue\" (the learned net of engine/games/chess/nnue.bin, "
                "both cores); either scaled down in drawish material. \"nnue\" is refused (422) while the "
                "server has no net (GET /readyz says why)")

GAME_TYPE = GameType(
    id=GAME_ID,
    name="Chess",
    description="The standard game (FIDE laws), rules by python-chess. The game ends by checkmate, "
                "stalemate, insufficient material, the fifty-move rule or threefold repetition (from the "
                "state's moves). Values are in pawns from the side to move; a won game is worth 100.",
    state_format="{\"fen\": FEN (default: the standard start), \"moves\": [moves played from it, UCI "
                 "\"e2e4\" or SAN \"e4\"] or one string of them separated by spaces (default none; they give "
                 "the history that threefold repetition needs)}; or a FEN string alone; or {\"pgn\": a game "
                 "in PGN} (its final position, its moves the history)",
    initial_state={"fen": START_FEN, "moves": []},
    move_format="a UCI string: from and to squares, and the promotion piece (\"e2e4\", \"e7e8q\", castling "
                "as the king's move \"e1g1\"), as answers write moves; SAN (\"e4\", \"Nf3\", \"O-O\", "
                "\"e8=Q\") and an uppercase promotion (\"e7e8Q\") are accepted too",
    example_request={"game": "chess", "state": {"fen": START_FEN, "moves": ["e2e4", "e7e5"]},
                     "algorithm": {"name": "alphabeta"}, "time_limit_ms": 1000},
    players=player_ids(PLAYER_INFO),
    player_info=PLAYER_INFO,
    history_field="moves",
    conventions="The players are white and black; a FEN writes the side to move as w or b and their pieces in "
                "upper and lower case. A move is UCI (\"e2e4\", squares a1..h8 with rank 1 White's); SAN is "
                "accepted and written beside it (san, pv_san, played_san).",
    chance=NO_CHANCE,
    zero_sum=True,
    alternating=True,
    outcomes=True,
    native_core=True,
    utility_bounds=(-1.0, 1.0),
    max_length=None,
    key_fixes_ply=False,
    value_unit="pawns (centipawns / 100) for the side to move; a won game 100, a lost one -100 (a proven mate: outcome and plies_to_end; score {\"mate\": N}); MCTS: the mean playout utility in [-1, 1] (a won game 1), a win rate, score {\"value\": v} and win_probability (1 + v) / 2, not centipawns",
    value_scale="pawns",
    move_schema={"type": "string", "minLength": 2, "maxLength": 10},
    options=(EVALUATION_OPTION,),
    sample_states=({"fen": "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"},
                   {"fen": "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"},
                   {"fen": "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"}),
)


def positional_terms(state) -> tuple:
    """``(mg, eg)``: what the evaluation adds to PeSTO's sums, the mover's in centipawns: the pawn structure,
    the pieces' activity and the king's safety, and the threats to pieces."""
    structure_mg, structure_eg = structure(state[BOARD])
    active_mg, active_eg, ours, theirs = activity(state[BOARD], state[RIGHTS])
    threat_mg, threat_eg = threats(state[BOARD], ours, theirs)
    return structure_mg + active_mg + threat_mg, structure_eg + active_eg + threat_eg


def unscaled_score(state) -> float:
    """The evaluation in centipawns for the mover of an ongoing state, before drawish material scales it."""
    mg, eg = positional_terms(state)
    return blend(state[MG] + mg, state[EG] + eg, state[PHASE])


class Chess(Game):
    """Chess. Utilities: +1 for a win, -1 for a loss, 0 for a draw."""

    id = GAME_ID
    game_type = GAME_TYPE
    capabilities = frozenset({EVALUATION, MOVE_ORDERING, HASHING, QUIESCENCE, EXTENSIONS, NULL_MOVE, REPETITION,
                              ASPIRATION, EXCHANGE, FUTILITY})
    notation = "san"

    # --- the rules -------------------------------------------------------------------------------

    def to_move(self, state):
        return state[PLY] & 1

    def actions(self, state):
        return list(moves(state))

    def result(self, state, move):
        return play(state, move)

    def is_terminal(self, state):
        return state[STATUS] != ONGOING

    def utility(self, state, player):
        if state[STATUS] == CHECKMATE:                    # the player to move is mated
            return -1.0 if player == state[PLY] & 1 else 1.0
        return 0.0

    # --- knowledge for searches ------------------------------------------------------------------

    def evaluate(self, state, player):
        if state[STATUS] != ONGOING:
            return self.utility(state, player)
        v = drawish.scaled(self.score(state), state[BOARD]) / CENTIPAWNS_PER_UNIT
        v = EVAL_LIMIT if v > EVAL_LIMIT else -EVAL_LIMIT if v < -EVAL_LIMIT else v
        return v if player == state[PLY] & 1 else -v

    def plies_played(self, state):
        return state[PLY]

    def score(self, state) -> float:
        """The evaluation in centipawns for the mover of an ongoing state, before drawish material scales it:
        the classic one (:func:`unscaled_score`)."""
        return unscaled_score(state)

    def key(self, state):
        return state[KEY]

    def table_key(self, state):
        """The position and the side to move, and the clock once a fifty-move draw comes within a search's
        reach (:data:`~.position.KEYED_CLOCK`), without the history: the same position reached by other
        moves shares the table's entry (:meth:`engine.game.Game.table_key`)."""
        here, clock, ply, _ = state[KEY]
        return here, ply & 1, clock if clock >= KEYED_CLOCK else 0

    def ordered_actions(self, state):
        """Captures and promotions first, most valuable victim then least valuable attacker (MVV-LVA),
        then the quiet moves, those the piece-square tables like best first."""
        board, flip = state[BOARD], 119 if state[PLY] & 1 else 0   # absolute squares -> the mover's view
        scored = []
        for m in moves(state):
            i, j = abs(flip - (m >> 10)), abs(flip - ((m >> 3) & 127))
            q = board[j]
            if q != "." or m & 7:
                scored.append((NOISY_FIRST + 10 * (VICTIM[q.upper()] + PROMOTION_GAIN[m & 7]) - VICTIM[board[i]], m))
            else:
                row = TABLES[state[PLY] & 1][0][board[i]]
                scored.append((row[j] - row[i], m))
        scored.sort(reverse=True)
        return [m for _, m in scored]

    def noisy_actions(self, state):
        """``(gain, move)`` for the captures and promotions, MVV-LVA first; ``gain`` is what the move can
        be expected to win at most: the victim and the promotion, and a margin for the squares, less the
        capturing piece when it is worth more than its victim and the opponent guards the square (a
        one-recapture exchange estimate, so that quiescence skips the captures that lose material)."""
        board, ep = state[BOARD], state[EP]
        flip = FLIP if state[PLY] & 1 else 0
        scored = []
        for i, j, promotion in noisy_moves(state):
            q = board[j]
            gain = VICTIM["P" if q == "." and j == ep else q.upper()] + PROMOTION_GAIN[promotion]
            attacker = VICTIM[board[i]]
            expected = gain - attacker if attacker > gain and attacked(board, j) else gain
            scored.append((10 * gain - attacker, (expected + DELTA_MARGIN) / CENTIPAWNS_PER_UNIT,
                           abs(flip - i * 1024 - j * 8) + promotion))
        scored.sort(reverse=True)
        return [(gain, m) for _, gain, m in scored]

    def exchange(self, state, move):
        """Static exchange evaluation (:mod:`.exchange`): what ``move`` wins on its target square when both
        sides go on capturing there with their cheapest pieces, in evaluation units (negative: it loses)."""
        i, j, promotion = move >> 10, (move >> 3) & 127, move & 7
        if state[PLY] & 1:
            i, j = 119 - i, 119 - j
        board = state[BOARD]
        en_passant = j == state[EP] and board[i] == "P"
        return static_exchange(board, i, j, PROMOTIONS[promotion].strip(), en_passant) / CENTIPAWNS_PER_UNIT

    def futility_margin(self, state):
        return FUTILITY_MARGIN

    def forcing(self, state):
        """The side to move is in check."""
        return state[CHECK]

    def null_move(self, state):
        """The position with the turn passed; None in check (illegal) and when the mover has only pawns
        and king (zugzwang is likely there, and a pass would be the best move)."""
        if state[CHECK] or not any(c in state[BOARD] for c in "NBRQ"):
            return None
        return passed(state)

    def repeated(self, state):
        return state[REPEATS] > 0

    def aspiration_width(self, state):
        return ASPIRATION_WIDTH

    def native_state(self, state):
        """The state as the compiled core reads it (native/src/bindings/chess.cpp): ``(board, rights, ep,
        clock, ply, history)``, the history as position keys; the core derives the rest."""
        return state[BOARD], state[RIGHTS], state[EP], state[CLOCK], state[PLY], state[HISTORY]

    # --- JSON ------------------------------------------------------------------------------------

    def move_to_json(self, move):
        return uci(move)

    def move_from_json(self, value, state):
        return notation.parse_move(value, state)

    def value_to_json(self, value):
        """Pawns (centipawns / 100, rounded to a centipawn): a won game is 100."""
        return round(value * PAWNS_PER_UNIT, 2)

    def move_notation(self, state, move):
        """SAN (``"Nf3"``, ``"exd8=Q+"``, ``"O-O"``)."""
        return notation.san(state, move)

    def line_notation(self, state, line, until=None):
        return notation.line_san(state, line, until)

    def end_reason(self, state):
        return REASONS.get(state[STATUS])

    def state_to_json(self, state):
        return notation.history_json(state)

    def position_key(self, state):
        """The Polyglot Zobrist key of the position (python-chess's ``chess.polyglot.zobrist_hash``: the
        pieces, the side to move, the castling rights and a capturable en-passant square), as opening books
        key it; neither the move clocks nor the repetitions count."""
        return format(notation.polyglot_key(state), "016x")

    def child_to_json(self, state_json, move, child):
        """The state after ``move`` in the form of the request's: a FEN string answers the FEN after the
        move; a PGN the PGN with the move added; ``{"fen"?, "moves"}`` the same FEN (written out) and the
        moves with ``move`` added, the whole history kept, in the notation of the state's last move (SAN
        if it was written in SAN, else UCI) and as a list or a string as the moves were."""
        if isinstance(state_json, str):
            return notation.fen(child)
        if "pgn" in state_json:
            return {"pgn": notation.pgn_with(state_json["pgn"], move)}
        played = state_json.get("moves", [])
        words = played.split() if isinstance(played, str) else list(played)
        if words and not notation.is_uci(words[-1]):
            written = notation.san(notation.load_state(state_json), move)
        else:
            written = uci(move)
        words.append(written)
        return {"fen": state_json.get("fen", START_FEN), "moves": " ".join(words) if isinstance(played, str) else words}

    def position_extras(self, state):
        """``fen``: the position itself (after the state's moves)."""
        return {"fen": notation.fen(state)}


class NnueChess(Chess):
    """Chess valued by a learned net (:mod:`.nnue`) instead of the classic evaluation, scaled and bounded
    alike; the compiled core values it with the same net, which the state names by its digest."""

    def __init__(self, net: nnue.Network):
        self.net = net

    def score(self, state) -> float:
        return float(nnue.centipawns(self.net, state[BOARD], bool(state[PLY] & 1)))

    def native_state(self, state):
        """Chess's native state and the net's sha256 (native/src/bindings/chess.cpp refuses a net other
        than the one it was handed)."""
        return (*super().native_state(state), self.net.sha256)


GAME = Chess()


def game_for(evaluation) -> Chess:
    """The game valued by the ``evaluation`` option; :class:`InvalidState` on ``options.evaluation`` for
    another value, or for ``"nnue"`` while no net is loaded (saying why)."""
    if evaluation is None or evaluation == CLASSIC:
        return GAME
    if evaluation != NNUE:
        raise InvalidState(f"evaluation is {CLASSIC!r} or {NNUE!r}", field="options.evaluation")
    loaded = nnue.current()
    if loaded.net is None:
        raise InvalidState(f"the nnue evaluation is unavailable on this server: {loaded.reason}",
                           field="options.evaluation")
    return NnueChess(loaded.net)


def load(state_json, limits=None, evaluation=None, **_):
    """``(game, state)`` from a FEN string, ``{"fen"?, "moves"?}`` or ``{"pgn"}``, under the ``evaluation``
    option; :class:`InvalidState` names the field at fault."""
    return game_for(evaluation), notation.load_state(state_json)
