"""Issue 53: every search answer carries ``position_key`` (Game.position_key): the Polyglot Zobrist key in
chess, a canonical hash of the state elsewhere; equal positions give equal keys whatever form the state was
written in, and different positions different keys, over random positions."""
import chess
import chess.polyglot
from hypothesis import given, settings, strategies as st

import engine.api

PICKS = st.lists(st.integers(min_value=0, max_value=10_000), max_size=40)
GAMES = ["tictactoe", "connect4", "othello", "checkers", "go", "2048", "backgammon"]


def played(game_id, picks):
    """The game, and the states of a game from its start that plays the legal move ``pick`` mod their
    number (a chance outcome likewise), until it ends."""
    game, state = engine.api.load(game_id, engine.api.started(game_id, {}))
    states = [state]
    for pick in picks:
        if game.is_terminal(state):
            break
        moves = game.actions(state)
        state = game.result(state, moves[pick % len(moves)])
        states.append(state)
    return game, states


def key_of(game_id, state_json):
    game, state = engine.api.load(game_id, state_json)
    return game.position_key(state)


@settings(max_examples=40, deadline=None)
@given(PICKS)
def test_a_chess_key_is_polyglot_s_in_every_form_of_the_state(picks):
    board, moves = chess.Board(), []
    for pick in picks:
        legal = list(board.legal_moves)
        if not legal:
            break
        move = legal[pick % len(legal)]
        moves.append(move.uci())
        board.push(move)
    expected = format(chess.polyglot.zobrist_hash(board), "016x")
    assert key_of("chess", {"moves": moves}) == key_of("chess", board.fen()) == expected


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(GAMES), PICKS)
def test_a_key_is_the_same_for_the_state_written_back(game_id, picks):
    """The state as the rules routes write it (a Connect Four board for its moves, say) has the same key."""
    game, states = played(game_id, picks)
    for state in states:
        assert key_of(game_id, game.state_to_json(state)) == game.position_key(state)


def position(game_id, game, state) -> str:
    """What makes a position itself: in chess the pieces, side, castling and a capturable en-passant
    square (an EPD, as Polyglot keys it), elsewhere the state as the game writes it."""
    if game_id == "chess":
        from engine.games.chess.notation import to_board
        return to_board(state).epd(en_passant="legal")
    return repr(game.state_to_json(state))


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(GAMES + ["chess"]), PICKS)
def test_different_positions_have_different_keys(game_id, picks):
    game, states = played(game_id, picks)
    seen: dict = {}
    for state in states:
        seen.setdefault(game.position_key(state), set()).add(position(game_id, game, state))
    assert all(len(positions) == 1 for positions in seen.values())
    assert len(seen) == len({position(game_id, game, state) for state in states})


def test_connect4_s_moves_and_board_are_one_position():
    assert key_of("connect4", {"moves": "4453"}) == key_of(
        "connect4", {"board": [".......", ".......", ".......", ".......", "...O...", "..OXX.."]})
    assert key_of("connect4", {"moves": "4453"}) != key_of("connect4", {"moves": "4435"})  # O's discs swap


def test_the_chess_start_is_polyglot_s_start_key():
    assert key_of("chess", {}) == "463b96181691fc9c"
