"""Learning the engine's judgement from data: positions from the engine's own play, labels from a reference
engine and the games' results, training with JAX, export to a small verified weights file, and acceptance by
match. Each run makes fresh data (never committed) and carries what it learned in the weights it commits.

- :mod:`learn.selfplay`: games of the compiled core from randomised openings, every position labelled.
- :mod:`learn.labels`: the reference engine's score of a position at a fixed depth (Stockfish for chess).
- :mod:`learn.shards`: the labelled positions on disk, one shard a process, read back with duplicates dropped
  and split into training and validation by game.
- :mod:`learn.features`: a position as the net's sparse inputs.
- :mod:`learn.train`: the trainer (JAX): loss, validation, early stopping, the curves.
- :mod:`learn.export`: the trained floats quantised into the weights file the cores read.
- :mod:`learn.accept`: the match that decides whether a new net replaces the committed one.
- :mod:`learn.backgammon`: backgammon's parts (the compiled core's self-play, gnubg-nn's labels, the contact
  and race nets, their weights files and matches), on the shared generation, shards, trainer and curves.
- ``python -m learn chess|backgammon --hours 2``: all of it, resumable, within the machine.
"""
