"""``tactician.Client``: the routes of openapi.yaml as methods, over ``requests``."""
from dataclasses import dataclass
import json
from typing import Any, Iterator, Mapping, Sequence

import requests

from tactician.types import (AppliedPosition, BatchResponse, Game, Move, Position, Problem, ReviewResponse,
                             SearchInfo, SearchResponse, State)

DEFAULT_TIMEOUT = 30.0
SEARCH_MARGIN_S = 10.0  # beyond a search's own time limit, for the network and a busy server's wait
DEFAULT_SEARCH_MS = 10_000  # a batch's search without a time limit: at most the server's MAX_TIME_LIMIT_MS default
REVIEW_MAX_MS = 120_000     # a review's longest time limit


class ProblemError(Exception):
    """An answer other than 2xx: its problem+json (RFC 9457) fields, and ``retry_after`` (seconds) when the
    server said when to try again (429, 503). ``problem`` is the whole body; an answer that is not
    problem+json (a proxy's page) is described by its status and text."""

    def __init__(self, status: int, problem: Mapping[str, Any], headers: Mapping[str, str] | None = None):
        self.status = status
        self.problem: Problem = dict(problem)  # type: ignore[assignment]
        self.type: str = problem.get("type", "about:blank")
        self.title: str = problem.get("title", "")
        self.detail: str = problem.get("detail", "")
        self.errors: dict[str, list[str]] = dict(problem.get("errors") or {})
        self.headers = dict(headers or {})
        self.retry_after: float | None = retry_after(self.headers.get("Retry-After"))
        super().__init__(f"{status} {self.title}: {self.detail}" if self.detail else f"{status} {self.title}")

    @classmethod
    def from_response(cls, response: requests.Response) -> "ProblemError":
        try:
            body = response.json()
        except ValueError:
            body = None
        if not isinstance(body, dict):
            body = {"type": "about:blank", "title": response.reason or "", "status": response.status_code,
                    "detail": response.text[:500]}
        return cls(response.status_code, body, response.headers)


def retry_after(value: str | None) -> float | None:
    """Retry-After's delay in seconds (the server sends seconds; an HTTP date is not parsed)."""
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None


@dataclass(frozen=True)
class Event:
    """One event of a streamed search: ``info`` (``data`` a SearchInfo) or ``result`` (a SearchResponse)."""
    event: str
    data: dict[str, Any]


class Client:
    """A client of one Tactician server. ``api_key`` goes in ``X-API-Key``; ``timeout`` (seconds) bounds
    every call, and a search's at least its ``time_limit_ms`` plus a margin."""

    def __init__(self, base_url: str, api_key: str | None = None, timeout: float = DEFAULT_TIMEOUT,
                 session: requests.Session | None = None):
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.session = session or requests.Session()
        self.headers = {"Accept": "application/json, application/problem+json",
                        "User-Agent": "tactician-client/0.1"}
        if api_key is not None:
            self.headers["X-API-Key"] = api_key

    # The routes.

    def search(self, game: str, state: State, algorithm: str | Mapping[str, Any], time_limit_ms: int | None = None,
               trace: bool = False, options: Mapping[str, Any] | None = None,
               clock: Mapping[str, Any] | None = None, search_moves: Sequence[Move] | None = None,
               exclude_moves: Sequence[Move] | None = None) -> SearchResponse:
        """``POST /v1/search``. ``algorithm`` is the algorithm object, or only its name; ``options`` the game's
        options (as for ``legal_moves`` and ``apply``); ``clock`` the mover's clock instead of
        ``time_limit_ms`` (``{"remaining_ms", "increment_ms", ...}``: the server allots the move's time);
        ``search_moves`` the only root moves to search, ``exclude_moves`` root moves not to search."""
        body = search_body(game, state, algorithm, time_limit_ms, trace, options, clock, search_moves, exclude_moves)
        return self._json("POST", "/v1/search", body, timeout=self._search_timeout(time_limit_ms, clock))

    def search_stream(self, game: str, state: State, algorithm: str | Mapping[str, Any],
                      time_limit_ms: int | None = None, trace: bool = False,
                      options: Mapping[str, Any] | None = None,
                      clock: Mapping[str, Any] | None = None, search_moves: Sequence[Move] | None = None,
                      exclude_moves: Sequence[Move] | None = None) -> Iterator[Event]:
        """``POST /v1/search/stream``: yields each ``info`` event as it arrives, then the ``result``; an
        ``error`` event is raised as a ProblemError. Closing the generator early closes the connection,
        which stops the search. The arguments are :meth:`search`'s."""
        body = search_body(game, state, algorithm, time_limit_ms, trace, options, clock, search_moves, exclude_moves)
        return self._events("/v1/search/stream", body, self._search_timeout(time_limit_ms, clock))

    def search_batch(self, searches: list[Mapping[str, Any]]) -> BatchResponse:
        """``POST /v1/search/batch``: ``searches`` are ``/v1/search`` bodies (:func:`search_body` makes
        one); the answers come in the same order."""
        limit_ms = sum(search.get("time_limit_ms") or DEFAULT_SEARCH_MS for search in searches)
        return self._json("POST", "/v1/search/batch", {"searches": [dict(s) for s in searches]},
                          timeout=self._search_timeout(limit_ms))

    def search_batch_stream(self, searches: list[Mapping[str, Any]]) -> Iterator[Event]:
        """``POST /v1/search/batch/stream``: yields a ``search`` event (``{"index", "result"}``) as each search
        finishes, then the ``result`` (the ``search_batch`` answer)."""
        limit_ms = sum(search.get("time_limit_ms") or DEFAULT_SEARCH_MS for search in searches)
        return self._events("/v1/search/batch/stream", {"searches": [dict(s) for s in searches]},
                            self._search_timeout(limit_ms))

    def review(self, game: str, algorithm: str | Mapping[str, Any], state: State | None = None,
               moves: list[Move] | None = None, pgn: str | None = None, time_limit_ms: int | None = None,
               options: Mapping[str, Any] | None = None) -> ReviewResponse:
        """``POST /v1/review``: the game played (``state`` and ``moves``, or for chess ``pgn``), each
        decision judged by searches of ``algorithm`` within ``time_limit_ms`` for the whole review."""
        body = review_body(game, algorithm, state, moves, pgn, time_limit_ms, options)
        return self._json("POST", "/v1/review", body, timeout=self._search_timeout(body.get("time_limit_ms")
                                                                                   or REVIEW_MAX_MS))

    def review_stream(self, game: str, algorithm: str | Mapping[str, Any], state: State | None = None,
                      moves: list[Move] | None = None, pgn: str | None = None, time_limit_ms: int | None = None,
                      options: Mapping[str, Any] | None = None) -> Iterator[Event]:
        """``POST /v1/review/stream``: yields a ``ply`` event per decision judged, then the ``result``; an
        ``error`` event is raised as a ProblemError."""
        body = review_body(game, algorithm, state, moves, pgn, time_limit_ms, options)
        return self._events("/v1/review/stream", body, self._search_timeout(time_limit_ms or REVIEW_MAX_MS))

    def _events(self, path: str, body: Any, timeout: float) -> Iterator[Event]:
        """The server-sent events of ``POST path``; an ``error`` event raised as a ProblemError."""
        response = self.session.post(self.base_url + path, json=body, stream=True,
                                     headers={**self.headers, "Accept": "text/event-stream, application/problem+json"},
                                     timeout=timeout)
        try:
            if not response.ok:
                response.content  # read the whole problem
                raise ProblemError.from_response(response)
            lines = (line.decode("utf-8") for line in response.iter_lines(chunk_size=None))
            for name, data in parse_events(lines):
                if name == "error":
                    raise ProblemError(int(data.get("status", 422)), data, response.headers)
                yield Event(name, data)
        finally:
            response.close()

    def games(self) -> list[Game]:
        """``GET /v1/games``: every game."""
        return self._json("GET", "/v1/games")["games"]

    def game(self, id: str) -> Game:
        """``GET /v1/games/{id}``."""
        return self._json("GET", f"/v1/games/{requests.utils.quote(str(id), safe='')}")

    def legal_moves(self, game: str, state: State, options: Mapping[str, Any] | None = None) -> Position:
        """``POST /v1/games/{game}/legal-moves``: who moves, the players, the legal moves (``legal_moves``),
        the result if the game is over."""
        body: dict[str, Any] = {"state": state}
        if options is not None:
            body["options"] = dict(options)
        return self._json("POST", f"/v1/games/{requests.utils.quote(str(game), safe='')}/legal-moves", body)

    def apply(self, game: str, state: State, move: Move = None, options: Mapping[str, Any] | None = None,
              moves: list[Move] | None = None) -> AppliedPosition:
        """``POST /v1/games/{game}/apply``: the state after ``move``, or after each of ``moves`` in order (give
        one of the two), and the same as legal_moves for it."""
        if (move is None) == (moves is None):
            raise TypeError("apply takes a move or a list of moves (moves=[...]), one of the two")
        body: dict[str, Any] = {"state": state}
        body.update({"move": move} if moves is None else {"moves": list(moves)})
        if options is not None:
            body["options"] = dict(options)
        return self._json("POST", f"/v1/games/{requests.utils.quote(str(game), safe='')}/apply", body)

    # Plumbing.

    def _search_timeout(self, time_limit_ms: int | None, clock: Mapping[str, Any] | None = None) -> float:
        """How long to wait for a search's answer: its time limit, or under a clock all the time left
        (the server takes far less), and a margin."""
        limit_ms = clock["remaining_ms"] if clock is not None else time_limit_ms or 0
        return max(self.timeout, limit_ms / 1000 + SEARCH_MARGIN_S)

    def _json(self, method: str, path: str, body: Any = None, timeout: float | None = None) -> Any:
        response = self.session.request(method, self.base_url + path, json=body, headers=self.headers,
                                        timeout=timeout or self.timeout)
        if not response.ok:
            raise ProblemError.from_response(response)
        return response.json()

    def close(self) -> None:
        self.session.close()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def search_body(game: str, state: State, algorithm: str | Mapping[str, Any], time_limit_ms: int | None,
                trace: bool, options: Mapping[str, Any] | None = None,
                clock: Mapping[str, Any] | None = None, search_moves: Sequence[Move] | None = None,
                exclude_moves: Sequence[Move] | None = None) -> dict[str, Any]:
    """A ``/v1/search`` body of the arguments given (see :meth:`Client.search`)."""
    body: dict[str, Any] = {"game": game, "state": state,
                            "algorithm": {"name": algorithm} if isinstance(algorithm, str) else dict(algorithm)}
    if options is not None:
        body["options"] = dict(options)
    if time_limit_ms is not None:
        body["time_limit_ms"] = time_limit_ms
    if clock is not None:
        body["clock"] = dict(clock)
    if search_moves is not None:
        body["search_moves"] = list(search_moves)
    if exclude_moves is not None:
        body["exclude_moves"] = list(exclude_moves)
    if trace:
        body["trace"] = True
    return body


def review_body(game: str, algorithm: str | Mapping[str, Any], state: State | None, moves: list[Move] | None,
                pgn: str | None, time_limit_ms: int | None, options: Mapping[str, Any] | None) -> dict[str, Any]:
    body: dict[str, Any] = {"game": game,
                            "algorithm": {"name": algorithm} if isinstance(algorithm, str) else dict(algorithm)}
    for key, value in (("state", state), ("moves", moves), ("pgn", pgn), ("time_limit_ms", time_limit_ms)):
        if value is not None:
            body[key] = value
    if options is not None:
        body["options"] = dict(options)
    return body


def parse_events(lines: Iterator[str]) -> Iterator[tuple[str, Any]]:
    """``(event, data)`` of a server-sent event stream, line by line as it arrives; comments (the
    keep-alives) skipped, several ``data`` lines joined by newlines."""
    name, data = "message", []
    for line in lines:
        if line == "":
            if data:
                yield name, json.loads("\n".join(data))
            name, data = "message", []
        elif line.startswith(":"):
            continue
        else:
            field, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if field == "event":
                name = value
            elif field == "data":
                data.append(value)
    if data:
        yield name, json.loads("\n".join(data))


__all__ = ["Client", "Event", "ProblemError", "SearchInfo"]
