"""What the user told the upgrade to leave alone: ``# targetlang: ignore`` comments on a
site's lines, and the codes a configuration ignores for a whole file.

A :class:`Quiet` answers one question for every handler: is this site (a code, lines
``first``..``last``) suppressed? A suppressed site is neither rewritten nor reported.
"""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass, field

from .codes import matches

__all__ = ["DIRECTIVE", "Quiet", "comment_lines", "directive_codes", "python_comment_lines"]

#: ``targetlang: ignore`` or ``targetlang: ignore[TL301, TL6]`` inside a comment.
DIRECTIVE = re.compile(r"targetlang:[ \t]*ignore(?:\[([^\]\r\n]*)\])?", re.I)
#: A comment in a language whose comments start with ``#`` where a blank or the line's
#: start precedes it (shell, YAML, TOML): the directive inside it.
_HASH_COMMENT = re.compile(r"(?:^|(?<=[ \t]))#[^\r\n]*?" + DIRECTIVE.pattern, re.I | re.M)

_WORD = re.compile("targetlang", re.I)
#: codes a directive names: None for all of them
Codes = frozenset[str] | None


def directive_codes(group: str | None) -> Codes:
    """The codes of a directive's brackets (None: no brackets, every code)."""
    if group is None:
        return None
    return frozenset(c.strip().upper() for c in group.split(",") if c.strip())


def _merge(lines: dict[int, Codes], line: int, codes: Codes) -> None:
    if line in lines:
        old = lines[line]
        lines[line] = None if old is None or codes is None else old | codes
    else:
        lines[line] = codes


def comment_lines(text: str) -> dict[int, Codes]:
    """The lines (from 1) of a ``#``-comment language that carry a directive."""
    if not _WORD.search(text):
        return {}
    found: dict[int, Codes] = {}
    for match in _HASH_COMMENT.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        _merge(found, line, directive_codes(match.group(1)))
    return found


def python_comment_lines(text: str) -> dict[int, Codes]:
    """The lines of a Python program that carry a directive in a comment (a string holding
    the words is not a comment: the tokenizer decides, and only when the words are there)."""
    if not _WORD.search(text) or not DIRECTIVE.search(text):
        return {}
    found: dict[int, Codes] = {}
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.COMMENT:
                match = DIRECTIVE.search(token.string)
                if match:
                    _merge(found, token.start[0], directive_codes(match.group(1)))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return comment_lines(text)  # not tokenizable to the end: the comments seen by shape
    return found


@dataclass
class Quiet:
    """The suppressions of one program: directives by line, and the codes the
    configuration ignores in the whole file (prefixes and ``ALL`` allowed)."""

    lines: dict[int, Codes] = field(default_factory=dict)
    ignored: frozenset[str] = frozenset()
    #: how many sites were suppressed
    count: int = 0

    def covers(self, code: str, first: int, last: int | None = None) -> bool:
        """Whether a site of ``code`` on lines ``first``..``last`` is suppressed (counted)."""
        if self.ignored and matches(code, self.ignored):
            self.count += 1
            return True
        if self.lines:
            for line in range(first, (last or first) + 1):
                if line in self.lines:
                    codes = self.lines[line]
                    if codes is None or matches(code, codes):
                        self.count += 1
                        return True
        return False

    def shifted(self, lines: dict[int, Codes]) -> Quiet:
        """The same configuration with other directives (an embedded program's)."""
        return Quiet(lines, self.ignored)
