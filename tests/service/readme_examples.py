"""The curl examples of README.md, as data: each ``curl ...`` command (method, path, body) and the answer the
README shows after it, if any. Every answer is exact but for its timings (:func:`exact`), unless its example
depends on the time it is given (a search that runs out of time, whose depth and nodes are the machine's):
such an example is marked, in the line just before its code fence, with ``<!-- example: shape only -->``, and
the test then checks its status and its shape (:func:`shape`: its fields' names, at every depth) only.

``python -m tests.service.readme_examples URL`` prints, for each example, what that server answers, to bring
the README up to date by hand."""
from dataclasses import dataclass
from pathlib import Path
import re
import shlex

from engine.search import native
from tests.service.support import parse_events  # noqa: F401  (the examples tests read streams with it)

import pytest

README = Path(__file__).resolve().parents[2] / "README.md"
SHAPE_ONLY = "<!-- example: shape only -->"
# The fields of an answer that vary from run to run, at any depth of it: how long it took; and the core that
# ran a search, where the compiled core is not built (the README shows the default, the compiled core's
# answers; the Python core's are the same but for it).
TIMINGS = frozenset({"time_ms", "nodes_per_second"} | (set() if native.available() else {"core"}))


@dataclass
class Example:
    heading: str  # the section it is in, for the test's id
    line: int  # of the curl command, 1-based
    method: str
    path: str
    body: str | None
    stream: bool
    answer: str | None  # as the README shows it
    shape_only: bool

    @property
    def id(self) -> str:
        return f"L{self.line}:{self.heading}"


def fences(text: str) -> list:
    """``[(info string, first line number, lines, the line before the fence)]``; an unclosed fence raises."""
    lines = text.split("\n")
    blocks, i = [], 0
    while i < len(lines):
        opening = re.match(r"^```(\S*)\s*$", lines[i])
        if opening:
            start = i
            i += 1
            while i < len(lines) and lines[i].rstrip() != "```":
                if lines[i].startswith("```"):
                    raise AssertionError(f"README.md line {i + 1}: a fence opens inside the one of line {start + 1}")
                i += 1
            if i == len(lines):
                raise AssertionError(f"README.md line {start + 1}: the code fence is never closed")
            previous = next((line for line in reversed(lines[:start]) if line.strip()), "")
            blocks.append((opening.group(1), start + 1, lines[start + 1:i], previous.strip(), i + 1))
        i += 1
    return blocks


def parse_curl(command: str) -> tuple:
    """``(method, path, body, stream)`` of a curl command line."""
    words = shlex.split(command)
    assert words[0] == "curl", command
    method, body, url, stream = None, None, None, False
    i = 1
    while i < len(words):
        word = words[i]
        if word in ("-d", "--data", "--data-raw"):
            body, i = words[i + 1], i + 2
            continue
        if word in ("-H", "--header"):
            assert words[i + 1].lower() == "content-type: application/json", words[i + 1]
            i += 2
            continue
        if word in ("-X", "--request"):
            method, i = words[i + 1], i + 2
            continue
        if word == "-N":
            stream = True
        elif word.startswith("-"):
            assert set(word[1:]) <= set("s"), f"an option the test does not know: {word}"
        else:
            url = word
        i += 1
    path = re.sub(r"^(https?://)?localhost:8000", "", url)
    return method or ("POST" if body is not None else "GET"), path, body, stream


def examples(text: str | None = None) -> list:
    text = README.read_text() if text is None else text
    headings = [(i + 1, line.lstrip("#").strip()) for i, line in enumerate(text.split("\n"))
                if line.startswith("#")]
    blocks = fences(text)
    found = []
    for index, (info, start, lines, before, end) in enumerate(blocks):
        heading = next((h for n, h in reversed(headings) if n < start), "")
        shape_only = before == SHAPE_ONLY
        commands = []  # [line, command, answer lines]
        j = 0
        while j < len(lines):
            line = lines[j]
            stripped = line[2:] if info == "console" and line.startswith("$ ") else line
            if stripped.startswith("curl "):
                first = start + 1 + j
                command = stripped
                while command.endswith("\\"):
                    j += 1
                    command = command[:-1] + " " + lines[j].strip()
                commands.append([first, command, []])
            elif info == "console" and commands and not line.startswith("$ "):
                commands[-1][2].append(line)
            j += 1
        if info == "sh" and len(commands) == 1 and index + 1 < len(blocks) and blocks[index + 1][0] == "text" \
                and blocks[index + 1][1] - end <= 2:
            commands[0][2] = blocks[index + 1][2]  # the answer in the block right after (an event stream)
        for first, command, answer in commands:
            method, path, body, stream = parse_curl(command)
            found.append(Example(heading, first, method, path, body, stream,
                                 "\n".join(answer).strip() or None, shape_only))
    return found


# A search's fields that a fixed depth or seeded iterations make the same on every run (never timings): what
# two answers to one request share wherever they were searched (a batch's and a single search's, say).
STABLE = ("move", "value", "outcome", "plies_to_end", "perspective")


def stable(body: dict) -> dict:
    return {key: body.get(key) for key in STABLE}


def without_stats(body: dict) -> dict:
    """A review's answer but its searches' totals (node counts and timings vary)."""
    return {key: value for key, value in body.items() if key != "stats"}


def exact(body):
    """An answer without what varies (:data:`TIMINGS`, at any depth): what an exact example must repeat."""
    if isinstance(body, dict):
        return {key: exact(value) for key, value in body.items() if key not in TIMINGS}
    if isinstance(body, list):
        return [exact(value) for value in body]
    return body


def shape(body):
    """An answer's shape: its objects' field names at every depth (a list's, those of its first element);
    what a shape-only example must repeat."""
    if isinstance(body, dict):
        return {key: shape(value) for key, value in body.items()}
    if isinstance(body, list):
        return [shape(body[0])] if body else []
    return None


def same(actual, expected) -> bool:
    """Equal, numbers to 1e-9 (the two cores and the platforms round the last bits differently)."""
    if isinstance(expected, float) or isinstance(actual, float):
        return isinstance(actual, (int, float)) and isinstance(expected, (int, float)) \
            and actual == pytest.approx(expected, rel=1e-9, abs=1e-12)
    if isinstance(expected, dict):
        return isinstance(actual, dict) and actual.keys() == expected.keys() \
            and all(same(actual[k], expected[k]) for k in expected)
    if isinstance(expected, list):
        return isinstance(actual, list) and len(actual) == len(expected) \
            and all(same(a, e) for a, e in zip(actual, expected))
    return actual == expected


def main(base: str) -> None:
    import requests
    for example in examples():
        response = requests.request(example.method, base + example.path, data=example.body,
                                    headers={"Content-Type": "application/json"} if example.body else {},
                                    timeout=60)
        print(f"--- {example.id} {response.status_code} {'(shape only)' if example.shape_only else ''}")
        print(response.text.strip())


if __name__ == "__main__":
    import sys
    main(sys.argv[1])
