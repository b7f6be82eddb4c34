"""The engine protocols that GUIs and bots speak, served in process over :mod:`engine.api`: UCI for chess
(:mod:`protocols.uci`, ``scripts/tactician-uci``) and GTP for Go (:mod:`protocols.gtp`, ``scripts/tactician-gtp``)."""
