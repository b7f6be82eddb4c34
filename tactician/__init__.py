"""A small typed client of the Tactician API (openapi.yaml), for contract tests in CI and for notebooks.

    >>> import tactician
    >>> client = tactician.Client("http://localhost:8000")
    >>> client.search("connect4", {"moves": "4453"}, {"name": "alphabeta", "depth": 8})["move"]
    2

Every answer is the JSON object the server sent, typed (tactician.types); every error is raised as a
``tactician.ProblemError`` carrying the problem+json body."""
from tactician.client import Client, Event, ProblemError
from tactician.types import (AppliedPosition, BatchItem, BatchResponse, Game, GameList, GameResult, Line, ManyStats,
                             MoveValue, PlayerInfo, Position, Problem, ReviewJudge, ReviewPly, ReviewResponse,
                             ReviewSide, SearchInfo, SearchResponse, State, Stats, WDL)

__all__ = ["Client", "Event", "ProblemError", "AppliedPosition", "BatchItem", "BatchResponse", "Game", "GameList",
           "GameResult", "State", "Line", "ManyStats", "MoveValue", "PlayerInfo", "Position", "Problem", "ReviewJudge", "ReviewPly",
           "ReviewResponse", "ReviewSide", "SearchInfo", "SearchResponse", "Stats", "WDL"]
__version__ = "0.1.0"
