"""The one tokenizer of legacy target text, from the grammar's terminals.

Every reader of legacy text splits it here: the one-pass reader (``_lower/plan.py``), the
grammar's fast path (``grammar.py``), the lowering's values (``_lower/core.py``), lint, tvmc
and the Arm features. ``grammar/target.lark`` stays the single source of truth: the scanner
of text with quotes or escapes is compiled from the terminals Lark compiles from it, and
text without them takes a shortcut that a test checks against that scanner (without quotes
or escapes every terminal is a run of non-spaces, told apart by its first character and an
"=", as the terminals' patterns say). The pieces of syntax that readers share live here
once each: whether a text holds quoting (``is_plain``), an option word's key
(``option_key``), and the comma split of an array value (``split_items``).
"""

from __future__ import annotations

import re
from typing import Literal

QUOTE = "'"
ESCAPE = "\\"

#: One token: its terminal (grammar/target.lark: ``WORD``, ``OPTION_NAME``, ``OPTION_ASSIGN``),
#: the word as written, and its offset in the text.
Token = tuple[str, str, int]


class MismatchedQuote(Exception):
    """A quote that is never closed (TVM's "Mismatched quotes"); ``offset`` is where it is."""

    def __init__(self, offset: int) -> None:
        super().__init__(offset)
        self.offset = offset


def is_plain(text: str) -> bool:
    """Whether ``text`` holds neither quote nor escape: then it is its own interpretation,
    and a word of it runs to the next space."""
    return QUOTE not in text and ESCAPE not in text


def option_key(word: str) -> tuple[str, int]:
    """An option word's key part (to its end, or to its first "=", if any; the caller
    splits there) without its leading dashes, and how many dashes there were."""
    key = word.lstrip("-")
    return key, len(word) - len(key)


_scanner: re.Pattern[str] | None = None


def scanner() -> re.Pattern[str]:
    """The grammar's word terminals, exactly as Lark compiles them, each after its spaces
    (compiled on first use: only text with quotes or escapes needs it)."""
    global _scanner
    if _scanner is None:
        from .grammar import target_parser

        lark = target_parser()
        ignored = set(lark.lexer_conf.ignore)
        words = [f"(?P<{t.name}>{t.pattern.to_regexp()})" for t in lark.terminals
                 if t.name not in ignored]
        _scanner = re.compile(" *(?:" + "|".join(words) + ")")
    return _scanner


def words(text: str) -> list[Token] | None:
    """The tokens of ``text``, in order; None if a word does not end at a space (an
    unclosed quote: no terminal matches it)."""
    if QUOTE not in text and ESCAPE not in text:
        return plain_words(text)
    out: list[Token] = []
    pos = 0
    for m in scanner().finditer(text):
        if m.start() != pos:
            return None  # something no terminal matches (an unclosed quote)
        pos = m.end()
        name = m.lastgroup
        assert name is not None  # every alternative is a named group
        out.append((name, m.group(name), m.start(name)))
    return None if text[pos:].strip(" ") else out


def plain_words(text: str) -> list[Token]:
    """``words`` of a text without quotes or escapes: runs of non-spaces, each an
    ``OPTION_ASSIGN`` (dashes, a key, "="), an ``OPTION_NAME`` (dashes, no "=") or a
    ``WORD`` (no dash first)."""
    out: list[Token] = []
    start = 0
    for word in text.split(" "):
        if word:
            out.append(("WORD" if word[0] != "-" else
                        "OPTION_ASSIGN" if "=" in word else "OPTION_NAME", word, start))
        start += len(word) + 1
    return out


def split_items(text: str, separator: str = ",", *, quotes: bool = True,
                empty: Literal["drop", "keep", "last"] = "drop") -> list[tuple[str, int]]:
    """The items of an array value, each with the index where it starts.

    ``quotes``: TVM's ``SplitString``: a separator inside quotes or escaped does not split,
    and quotes and escapes stay in the items (an unclosed quote raises ``MismatchedQuote``);
    without, every separator splits (LLVM's ``-mattr`` split, tvmc's, 0.6's getline).
    ``empty``: what becomes of empty items: ``drop`` them all (SplitString, LLVM, tvmc),
    ``keep`` them, or drop only the ``last`` one (a ``std::getline`` loop: a trailing
    separator ends the text without an item).
    """
    pieces: list[tuple[str, int]] = []
    if not quotes or (QUOTE not in text and ESCAPE not in text):
        start = 0
        if empty == "drop":  # (the hot path: array values as most strings write them)
            for piece in text.split(separator):
                if piece:
                    pieces.append((piece, start))
                start += len(piece) + 1
            return pieces
        for piece in text.split(separator):
            pieces.append((piece, start))
            start += len(piece) + 1
    else:
        current_start = i = 0
        n = len(text)
        quoted = False
        while i < n:
            c = text[i]
            if c == separator and not quoted:
                pieces.append((text[current_start:i], current_start))
                current_start = i + 1
            elif c == ESCAPE:
                i += 1  # the escaped character belongs to the item, whatever it is
            elif c == QUOTE:
                quoted = not quoted
            i += 1
        if quoted:
            raise MismatchedQuote(text.rfind(QUOTE))
        pieces.append((text[current_start:], current_start))
    if empty == "drop":
        return [piece for piece in pieces if piece[0]]
    if empty == "last" and pieces and not pieces[-1][0]:
        pieces.pop()
    return pieces
