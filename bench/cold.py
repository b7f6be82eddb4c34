"""How much of the service's per-search overhead is the machine's: the same request's work, in process (the
Flask app through its test client: no sockets, no gunicorn, no other thread), measured right after the
previous one, after a compiled search of L ms in the same thread, and after L ms idle.

    python -m bench.cold [--repeat 15] [--lengths 10,100,1000]

The request is ``bench.service``'s search-overhead search (Connect Four alpha-beta) with a 1 ms limit; its
"work" is its wall time less its ``stats.time_ms``, as ``search-overhead`` counts it through HTTP. Through
HTTP the overhead grows with the search's length; if the same work grows as much here, where nothing waits
on a socket or a thread, it is the caches and the idle virtual CPU that the search or the wait left behind,
not the service's path. Prints a Markdown table."""
import argparse
import logging
import time

import engine.api
from bench.service import OVERHEAD_SEARCH
from bench.stats import median, percentile
from service.app import create_app
from service.request_log import LOGGER

SHORT = {**OVERHEAD_SEARCH, "time_limit_ms": 1}


def request_work_ms(client) -> float:
    """Wall time less ``stats.time_ms`` of one ``POST /v1/search`` of the short search, in ms."""
    start = time.perf_counter()
    answer = client.post("/v1/search", json=SHORT, headers={"X-API-Key": "bench"})
    wall = (time.perf_counter() - start) * 1000.0
    assert answer.status_code == 200, answer.get_data(as_text=True)
    return wall - answer.get_json()["stats"]["time_ms"]


def after(client, before, repeat: int) -> list[float]:
    """The request's work, each time right after ``before()``."""
    works = []
    for _ in range(repeat):
        before()
        works.append(request_work_ms(client))
    return works


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--lengths", default="10,100,1000", help="search and idle lengths, ms")
    args = parser.parse_args(argv)
    client = create_app().test_client()
    level = LOGGER.level
    LOGGER.setLevel(logging.WARNING)  # the table alone on standard output
    try:
        print_table(client, args)
    finally:
        LOGGER.setLevel(level)


def print_table(client, args) -> None:
    """Warm the app up, then measure the request's work after each condition and print the table."""
    for _ in range(50):
        request_work_ms(client)
    game, state, algorithm = OVERHEAD_SEARCH["game"], OVERHEAD_SEARCH["state"], OVERHEAD_SEARCH["algorithm"]
    rows = [("back to back", after(client, lambda: None, args.repeat))]
    for length in (int(x) for x in args.lengths.split(",")):
        def search(ms=length):
            engine.api.search(game, state, algorithm, time_limit_ms=ms)

        rows.append((f"after a {length} ms search", after(client, search, args.repeat)))
        rows.append((f"after {length} ms idle", after(client, lambda s=length / 1000: time.sleep(s), args.repeat)))
    print("| before the request | work p50, ms | p90, ms |\n| --- | --- | --- |")
    for label, works in rows:
        print(f"| {label} | {median(works):.2f} | {percentile(works, 90):.2f} |")


if __name__ == "__main__":
    main()
