"""The one tokenizer of legacy target text, from the grammar's terminals.

Every reader of legacy text splits it here: the one-pass reader (``_lower/plan.py``), the
grammar's fast path (``grammar.py``), the lowering's values (``_lower/core.py``), lint, tvmc
and the Arm features. ``grammar/target.lark`` stays the single source of truth: the scanner
of text with escapes is compiled from the terminals Lark compiles from it, and text without
them takes a shortcut (a split at spaces that keeps quoted runs whole) that a property test
checks against that scanner. The pieces of syntax that readers share live here
once each: whether a text holds quoting (``is_plain``), an option word's key
(``option_key``), and the comma split of an array value (``split_items``).
"""

from __future__ import annotations

import re
from typing import Literal

QUOTE = "'"
ESCAPE = "\\"

#: One token: its terminal (grammar/target.lark: ``WORD``, ``OPTION_NAME``, ``OPTION_ASSIGN``),
#: the word as written, its offset in the text, and the word without its leading dashes
#: (``option_key``'s key part: an option's key, to its end or to its "=").
Token = tuple[str, str, int, str]


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
    splits there) without its leading dashes, and how many dashes there were. (``words``
    gives each token's key part too, the same way.)"""
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
    if ESCAPE not in text:
        return split_words(text)
    out: list[Token] = []
    pos = 0
    for m in scanner().finditer(text):
        if m.start() != pos:
            return None  # something no terminal matches (an unclosed quote)
        pos = m.end()
        name = m.lastgroup
        assert name is not None  # every alternative is a named group
        word = m.group(name)
        out.append((name, word, m.start(name), word.lstrip("-")))
    return None if text[pos:].strip(" ") else out


def split_words(text: str) -> list[Token] | None:
    """``words`` of a text without escapes, by splitting at spaces (a test checks it against
    the scanner). Without escapes the terminals say: a word runs to the next space outside
    quotes (a piece with an odd number of quotes opens a quoted run, which the next piece
    with an odd number closes); a word is an ``OPTION_ASSIGN`` if it starts with dashes and
    has an "=" before any quote, else an ``OPTION_NAME`` if it starts with a dash, else a
    ``WORD``."""
    out: list[Token] = []
    start = 0
    if QUOTE not in text:  # (the hot path: each piece is a word)
        for word in text.split(" "):
            if word:
                key = word.lstrip("-")
                out.append(("WORD" if word[0] != "-" else
                            "OPTION_ASSIGN" if "=" in key else "OPTION_NAME", word, start, key))
            start += len(word) + 1
        return out
    pieces = text.split(" ")
    count = len(pieces)
    i = 0
    while i < count:
        word = pieces[i]
        i += 1
        if word:
            if word.count(QUOTE) & 1:  # a quoted run with spaces in it
                run = [word]
                while True:
                    if i == count:
                        return None  # never closed
                    run.append(pieces[i])
                    i += 1
                    if run[-1].count(QUOTE) & 1:
                        break
                word = " ".join(run)
            key = word.lstrip("-")
            out.append(("WORD" if word[0] != "-" else "OPTION_ASSIGN"
                        if "=" in key.partition(QUOTE)[0] else "OPTION_NAME", word, start, key))
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
    if not quotes or is_plain(text):
        start = 0
        if empty == "drop":  # (the hot path: array values as most strings write them)
            if separator not in text:
                return [(text, 0)] if text else pieces
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
