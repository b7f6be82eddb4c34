"""Adjudication: ending a match game early when its result is already clear, so that long chess matches
fit their time. The game's own rules end a game first (chess: checkmate, stalemate, insufficient material,
the fifty-move rule and threefold repetition, as python-chess rules them); the referee
(:func:`bench.match.play`) asks the variant's adjudicator after every ply that leaves the game running.

:class:`MaterialAdjudication` (chess): a win for the side ahead by at least ``lead`` pawns of material
(pawn 1, knight and bishop 3, rook 5, queen 9; python-chess counts the pieces) at every one of the last
``plies`` plies, and a draw when the game reaches ``max_plies`` plies (the opening's included). Material
is a judge neither engine's evaluation owns, and a lead held through several moves of both sides is not
the middle of an exchange.
"""
from dataclasses import dataclass

import chess

VALUES = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}


def material_balance(board: chess.Board) -> int:
    """White's material minus Black's, in pawns."""
    return sum(v * (len(board.pieces(p, chess.WHITE)) - len(board.pieces(p, chess.BLACK)))
               for p, v in VALUES.items())


@dataclass(frozen=True)
class MaterialAdjudication:
    lead: int = 5
    plies: int = 8
    max_plies: int = 200

    def measure(self, state_json: dict) -> int:
        """White's material lead in a chess state (JSON: a FEN and the moves from it)."""
        board = chess.Board(state_json["fen"])
        for move in state_json.get("moves", []):
            board.push_uci(move)
        return material_balance(board)

    def __call__(self, balances: list, plies: int) -> tuple | None:
        """``(utilities [white, black], reason)`` or None (play on), given White's material lead after
        every ply the players made (see :meth:`measure`) and the plies of the game so far."""
        recent = balances[-self.plies:]
        if len(recent) == self.plies:
            if min(recent) >= self.lead:
                return [1.0, -1.0], f"adjudicated: White {self.lead}+ pawns ahead for {self.plies} plies"
            if max(recent) <= -self.lead:
                return [-1.0, 1.0], f"adjudicated: Black {self.lead}+ pawns ahead for {self.plies} plies"
        if plies >= self.max_plies:
            return [0.0, 0.0], f"adjudicated: draw at {self.max_plies} plies"
        return None

    def describe(self) -> str:
        return (f"a win when one side is {self.lead}+ pawns of material ahead (P 1, N/B 3, R 5, Q 9) for "
                f"{self.plies} consecutive plies; a draw at {self.max_plies} plies")
