"""Othello on the learning pipeline: a pattern evaluation (engine/games/othello/patterns.py) fitted, as
Buro's LOGISTELLO was, to positions of self-play labelled by the exact endgame solver."""
