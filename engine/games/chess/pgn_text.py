"""What python-chess's PGN reader passes over without a word.

``chess.pgn.read_game`` reads the tokens its movetext pattern knows (SAN, results, NAGs, comments) and
skips every other character: ``hello world`` is a game without moves, ``1. e4 e5 2. Qh9`` one of two
moves, a tag line it cannot read is dropped, and a blank line ends the moves, whatever follows. A state is
the whole of its PGN, so :func:`first_unread` finds the first such text, following the reader's own walk
through the lines, and the caller refuses it.
"""
import re
from typing import NamedTuple

import chess.pgn

# Text between the reader's tokens that PGN means: move numbers ("12.", "12..."), the periods of "1. .."
# and the check and mate signs ("+", "#") that its SAN pattern leaves out.
BETWEEN_TOKENS = re.compile(r"\d+\.*|\.+|[+#]+")
WORD = re.compile(r"\S+")


class Unread(NamedTuple):
    """The text read before the first unread word (the PGN up to it), the word, and why it is unread:
    ``TAG`` (a line of the tag section that is no tag pair), ``AFTER_END`` (text after the blank line that
    ends the moves) or ``MOVETEXT`` (a word of the moves that is no PGN token)."""

    before: str
    word: str
    why: str


TAG, AFTER_END, MOVETEXT = "tag", "after end", "movetext"


def first_unread(text: str) -> Unread | None:
    """The first text of ``text`` (a PGN without variations) that python-chess's reader would skip
    silently; None when it reads every word."""
    lines = text.lstrip("\ufeff").splitlines(keepends=True)
    i = skipped(lines, 0, lambda line: line.isspace() or line.startswith(("%", ";")))
    i, unread = tag_section(lines, i)
    if unread is not None:
        return unread
    return movetext(lines, i)


def skipped(lines: list[str], i: int, skip) -> int:
    """The index of the first line from ``i`` on that ``skip`` does not pass over."""
    while i < len(lines) and skip(lines[i]):
        i += 1
    return i


def tag_section(lines: list[str], i: int) -> tuple[int, Unread | None]:
    """``(index of the first movetext line, None)``, or the first tag line the reader drops (one blank
    line may stand between tags, as the reader allows)."""
    blank = False
    while i < len(lines):
        line = lines[i]
        if line.startswith(("%", ";")) or (line.isspace() and not blank):
            blank = blank or line.isspace()
            i += 1
            continue
        if not line.startswith("["):
            break
        if chess.pgn.TAG_REGEX.match(line) is None:
            return i, Unread("".join(lines[:i]), line.strip(), TAG)
        blank = False
        i += 1
    return i, None


def movetext(lines: list[str], i: int) -> Unread | None:
    """The first word of the moves, from line ``i``, that is no token of the reader's, or any word after
    the blank line where the reader stops."""
    fresh, column = True, 0
    while i < len(lines):
        line = lines[i]
        if fresh and line.startswith(("%", ";")):
            i += 1
            continue
        if fresh and line.isspace():
            return after_end(lines, i)
        column, stop = tokens(line, column)
        if stop == COMMENT:
            i, column = comment_end(lines, i, column)
            fresh = False
        elif stop == MOVETEXT:
            start = word_start(line, column)
            word = WORD.match(line, start)
            assert word is not None  # line[column] is a character no token covers
            return Unread("".join(lines[:i]) + line[:start], word.group(), MOVETEXT)
        else:
            i, column, fresh = i + 1, 0, True
    return None


COMMENT = "{"


def tokens(line: str, column: int) -> tuple[int, str | None]:
    """Reads the tokens of ``line`` from ``column`` as the reader does, up to ``(column, COMMENT)`` where
    a comment opens, ``(column, MOVETEXT)`` at the first character no token covers, or ``(end, None)``."""
    while column < len(line):
        c = line[column]
        if c.isspace():
            column += 1
        elif c == ";":
            break
        elif c == COMMENT:
            return column, COMMENT
        else:
            token = chess.pgn.MOVETEXT_REGEX.match(line, column) or BETWEEN_TOKENS.match(line, column)
            if token is None:
                return column, MOVETEXT
            column = token.end()
    return len(line), None


def word_start(line: str, column: int) -> int:
    """The start of the word around ``column``: after the white space or the comment before it."""
    start = column
    while start > 0 and not line[start - 1].isspace() and line[start - 1] != "}":
        start -= 1
    return start


def comment_end(lines: list[str], i: int, column: int) -> tuple[int, int]:
    """``(line, column)`` just after the ``}`` that closes the comment opened at ``(i, column)``, or
    ``(len(lines), 0)`` when it runs to the end."""
    close = lines[i].find("}", column + 1)
    while close < 0:
        i += 1
        if i >= len(lines):
            return i, 0
        close = lines[i].find("}")
    return i, close + 1


def after_end(lines: list[str], i: int) -> Unread | None:
    """The first word after the blank line ``i`` that ends the moves, if there is one."""
    rest = "".join(lines[i:])
    word = WORD.search(rest)
    if word is None:
        return None
    return Unread("".join(lines[:i]), word.group(), AFTER_END)
