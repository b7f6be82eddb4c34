"""Issue 50 item 4: a PGN is read whole or refused. python-chess skips what it cannot read ("hello world"
was a game without moves, "1. e4 e5 2. Qh9" one of two); every route that reads a PGN answers a 422 on
``state.pgn`` (``pgn`` for a review) naming the first word that is no legal move."""
import pytest

from tests.service.test_bad_inputs import unprocessable

ALPHABETA = {"name": "alphabeta", "depth": 1}


def routes(pgn: str):
    """``(path, body, field)`` for every route that reads a chess PGN."""
    search = {"game": "chess", "state": {"pgn": pgn}, "algorithm": ALPHABETA, "time_limit_ms": 200}
    return [
        ("/v1/games/chess/legal-moves", {"state": {"pgn": pgn}}, "state.pgn"),
        ("/v1/games/chess/apply", {"state": {"pgn": pgn}, "move": "Nf3"}, "state.pgn"),
        ("/v1/search", search, "state.pgn"),
        ("/v1/search/stream", search, "state.pgn"),
        ("/v1/search/batch", {"searches": [search]}, "searches[0].state.pgn"),
        ("/v1/search/batch/stream", {"searches": [search]}, "searches[0].state.pgn"),
        ("/v1/review", {"game": "chess", "pgn": pgn, "algorithm": ALPHABETA}, "pgn"),
        ("/v1/review/stream", {"game": "chess", "pgn": pgn, "algorithm": ALPHABETA}, "pgn"),
    ]


@pytest.mark.parametrize("pgn, blamed", [
    ("hello world", "'hello' (White's move 1)"),
    ("1. e4 e5 2. Qh9", "'Qh9' (White's move 2)"),
    ("1. e4 e5 2. Qh9 Nc6", "'Qh9' (White's move 2)"),            # was a 422 on the legal-looking Nc6
    ("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 xyz", "'xyz' (Black's move 4)"),
    ("1. e4 e5 2. Ke3 Qh9", "White's move 2: illegal san: 'Ke3'"),  # the first bad word is the illegal one
    ("1. e4 e5\n\n2. Nf3 Nc6", "'2.' follows the blank line"),
    ('[Event "x"]\n[Site\n\n1. e4', "'[Site' is not a tag pair"),
    ("1. e4 -- 2. d4", "Black's move 1 is a null move"),           # was a 500 (a KeyError in the engine)
])
@pytest.mark.parametrize("route", range(8))
def test_every_route_refuses_a_pgn_read_in_part_naming_its_first_bad_word(client, pgn, blamed, route):
    path, body, field = routes(pgn)[route]
    messages = unprocessable(client.post(path, json=body), field)
    assert blamed in messages[0], messages


@pytest.mark.parametrize("route", range(8))
def test_a_whole_pgn_with_comments_nags_numbers_and_checks_is_read(client, route):
    pgn = '[Event "?"]\n\n1.e4 {best} e5 $1 2. Bc4!? ; a note\nNc6 3. Bxf7+?! Kxf7 4. Qh5+ g6 *'
    path, body, _ = routes(pgn)[route]
    response = client.post(path, json=body)
    assert response.status_code == 200, response.get_json()
