"""Backgammon's parts of the learning pipeline (``python -m learn backgammon``): positions from the compiled
core's self-play (:mod:`.selfplay`), gnubg-nn's outputs as labels (:mod:`.labels`), their shards
(:mod:`.shards`), the nets' model for the shared trainer (:mod:`.model`), the weights file
(engine/games/backgammon_net.py's format 2, :mod:`.export`) and the acceptance matches (:mod:`.accept`)."""
