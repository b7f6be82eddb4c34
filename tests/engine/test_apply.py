"""engine.api.apply: a list of moves to apply is checked before any is played."""
import pytest

from engine.api import GAME_MODULES, apply
from engine.errors import EngineError
from engine.registry import game_type


@pytest.mark.parametrize("game_id", list(GAME_MODULES))
def test_an_empty_list_of_moves_is_an_error_on_moves(game_id):
    with pytest.raises(EngineError) as caught:
        apply(game_id, game_type(game_id).initial_state, moves_json=[])
    assert list(caught.value.errors) == ["moves"]
