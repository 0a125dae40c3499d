"""Reads target text into syntax nodes with the LALR parsers built from ``grammar/``.

This is the only module that constructs a Lark parser or sees Lark's trees and exceptions:
``grammar/target.lark`` (legacy target text, into ``_ast`` nodes) and ``grammar/tvmc.lark``
(tvmc's ``--target`` lists, into plain words). Every Lark error becomes a ``SyntaxProblem``
(a message and an offset) here; the callers turn it into a ``TargetSyntaxError``.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

from .ast import Option, OptionForm, TargetText, Word
from .tokens import is_plain, option_key, words

if TYPE_CHECKING:
    from lark import Lark, Token


class SyntaxProblem(Exception):
    """A syntax error at an offset of the text parsed; the caller maps it to the source."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset


def _option_at(text: str, start: int, word: Word | None, form: OptionForm) -> Option:
    """An option word (and, for the spaced form, its value word) as an ``Option``."""
    dashes = option_key(text)[1]
    if form == "assign":
        equals = text.index("=")
        key = text[dashes:equals]
        if not key:
            raise SyntaxProblem(f"empty attribute key in {text!r}", start + dashes)
        if equals == len(text) - 1:
            raise SyntaxProblem(f"empty value for attribute {key!r}", start + len(text))
        word = _new(Word, (text[equals + 1 :], start + equals + 1))
        return _new(Option, (key, start + dashes, word, form, start, len(text)))
    key = text[dashes:]
    if not key:
        raise SyntaxProblem(f"{text!r} is not an attribute key: expected a name after the dashes",
                            start)
    length = len(text) if word is None else word.offset + len(word.text) - start
    return _new(Option, (key, start + dashes, word, form, start, length))


# Named tuples made straight from their fields: the generated __new__ costs a Python call
# per node, which the fast path pays for every word.
_new = tuple.__new__


def _option(token: Token, value: Token | None, form: OptionForm) -> Option:
    word = None if value is None else Word(str(value), value.start_pos or 0)
    return _option_at(str(token), token.start_pos or 0, word, form)


def _make_transformer() -> object:
    from lark import Token, Transformer, v_args

    @v_args(inline=True)
    class ToAst(Transformer[Token, TargetText]):
        """Parse tree -> ``_ast`` nodes; each method is named after its grammar rule."""

        def start(self, kind: Word, *options: Option) -> TargetText:
            """start: kind option*"""
            return TargetText(kind, options)

        def kind(self, token: Token) -> Word:
            """kind: WORD | OPTION_NAME | OPTION_ASSIGN"""
            return Word(str(token), token.start_pos or 0)

        def assign(self, token: Token) -> Option:
            """option: OPTION_ASSIGN -> assign"""
            return _option(token, None, "assign")

        def spaced(self, token: Token, value: Token) -> Option:
            """option: OPTION_NAME WORD -> spaced"""
            return _option(token, value, "spaced")

        def flag(self, token: Token) -> Option:
            """option: OPTION_NAME -> flag"""
            return _option(token, None, "flag")

    return ToAst()


@functools.cache
def target_parser() -> Lark:
    """The LALR parser of ``grammar/target.lark``, built once, transforming inline into ``_ast``."""
    from lark import Lark

    return Lark(grammar_text(), parser="lalr", lexer="contextual",
                transformer=_make_transformer(), cache=True)


@functools.cache
def tvmc_parser() -> Lark:
    """The LALR parser of ``grammar/tvmc.lark`` (tvmc's ``--target`` lists), built once."""
    from lark import Lark

    return Lark(grammar_text("tvmc.lark"), parser="lalr", lexer="contextual",
                start=["targets", "kind_option"], cache=True)


@functools.cache
def plain_target_parser() -> Lark:
    """``grammar/target.lark`` without the transformer (for tools: Hypothesis' ``from_lark``)."""
    from lark import Lark

    return Lark(grammar_text(), parser="lalr")


def grammar_text(name: str = "target.lark") -> str:
    """The text of ``grammar/<name>`` (installed as ``targetlang.grammar``), for the parsers
    here and for tools; from a source tree that was not installed (``python -m targetlang``
    in a checkout), read from the repository's ``grammar/`` folder directly."""
    from importlib import resources  # on first use: importing it costs ~10 ms

    try:
        return resources.files("targetlang.grammar").joinpath(name).read_text("utf-8")
    except ModuleNotFoundError:
        from pathlib import Path  # on first use: only an uninstalled checkout gets here

        source = Path(__file__).resolve().parents[2] / "grammar" / name
        return source.read_text("utf-8")


def compiled_terminals() -> tuple[str, tuple[tuple[str, str], ...]]:
    """What Lark compiles from ``grammar/target.lark`` for its words: the pattern of what
    separates them (the ignored terminal) and each word terminal's name and pattern, in
    Lark's order (the tokenizer's ``_terminals.py`` holds them)."""
    lark = target_parser()
    ignored = set(lark.lexer_conf.ignore)
    (separator,) = (t.pattern.to_regexp() for t in lark.terminals if t.name in ignored)
    return separator, tuple((t.name, t.pattern.to_regexp()) for t in lark.terminals
                            if t.name not in ignored)


def terminals_module() -> str:
    """The text of ``_syntax/_terminals.py``: ``compiled_terminals()`` as Python."""
    separator, words = compiled_terminals()
    lines = ['"""The word terminals of ``grammar/target.lark`` as Lark compiles them: the tokenizer\'s',
             "rules (``tokens.py``). Generated by ``python3 -m targetlang._syntax``; do not",
             'edit (tests/unit/syntax/test_tokens.py checks it is what Lark compiles today)."""',
             "", "#: what separates words (the grammar's ignored terminal)",
             f"SEPARATOR = {separator!r}", "#: each word terminal: its name and pattern",
             "WORDS = ("]
    lines += [f"    ({name!r},\n     {pattern!r})," for name, pattern in words]
    return "\n".join([*lines, ")", ""])


_EXPECTED_WORDS = {
    "WORD": "a value or target kind",
    "OPTION_NAME": "an option such as -key",
    "OPTION_ASSIGN": "an option such as -key=value",
    "$END": "the end of the text",
}


def parse_target_text(text: str) -> TargetText:
    """Parse one legacy target text; raise ``SyntaxProblem`` with an offset into ``text``.

    The fast path reads well-formed text with the grammar's own terminals; anything it
    does not accept goes through the LALR parser, which also reports every error.
    """
    syntax = _fast_parse(text)
    return syntax if syntax is not None else parse_with_lark(text)


def first_word(text: str) -> tuple[str, int] | None:
    """The kind word of legacy text as TVM's ``SplitString`` gives it, with its offset: the
    first word, where the text splits into words (no unclosed quote) and that word holds no
    quote or escape (then it is its own value); else None.

    ``FromRawString`` looks this word up as the kind before it reads any option, so an
    unknown kind is the error whatever follows it.
    """
    tokens = words(text)
    if not tokens:
        return None
    _, word, offset, _ = tokens[0]
    return (word, offset) if is_plain(word) else None


def _fast_parse(text: str) -> TargetText | None:
    """``start: kind option*`` over the tokenizer's words (``tokens.py``), or None.

    None means "not obviously well-formed": a word that does not end at a space (an
    unclosed quote), a value without its option, or an option the AST refuses. The LALR
    parser then decides, so errors have one source; a property test checks that whatever
    this accepts, the LALR parser reads the same.
    """
    tokens = words(text)
    if not tokens:
        return None
    options: list[Option] = []
    pending: tuple[str, int] | None = None  # an OPTION_NAME that may take the next WORD
    try:
        for terminal, word, start, _ in tokens[1:]:
            if terminal == "WORD":
                if pending is None:
                    return None  # a value where an option should be: a syntax error
                options.append(_option_at(pending[0], pending[1], _new(Word, (word, start)),
                                          "spaced"))
                pending = None
                continue
            if pending is not None:
                options.append(_option_at(pending[0], pending[1], None, "flag"))
                pending = None
            if terminal == "OPTION_ASSIGN":
                options.append(_option_at(word, start, None, "assign"))
            else:
                pending = (word, start)
        if pending is not None:
            options.append(_option_at(pending[0], pending[1], None, "flag"))
    except SyntaxProblem:
        return None
    kind = _new(Word, (tokens[0][1], tokens[0][2]))
    return _new(TargetText, (kind, tuple(options)))


def parse_with_lark(text: str) -> TargetText:
    """Parse with the LALR parser built from ``grammar/target.lark``."""
    from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

    try:
        tree = target_parser().parse(text)
    except UnexpectedCharacters as e:
        # The only character no terminal can start with is an unmatched quote.
        raise SyntaxProblem("mismatched quote: this ' is never closed", e.pos_in_stream or 0) from None
    except UnexpectedToken as e:
        if e.token.type == "$END":
            if not text.strip(" "):
                raise SyntaxProblem("empty target text: expected a target kind", len(text)) from None
            raise SyntaxProblem("unexpected end of the text", len(text)) from None
        if e.token.type == "WORD":
            raise SyntaxProblem(
                f"attribute keys start with '-': {str(e.token)!r} is not an attribute key",
                e.token.start_pos or 0,
            ) from None
        expected = ", ".join(sorted(_EXPECTED_WORDS.get(t, t) for t in e.expected))
        raise SyntaxProblem(f"unexpected {str(e.token)!r}: expected {expected}",
                            e.token.start_pos or 0) from None
    except UnexpectedInput as e:  # pragma: no cover - UnexpectedEOF is not raised by LALR
        raise SyntaxProblem("cannot read the target text", getattr(e, "pos_in_stream", 0) or 0) from None
    assert isinstance(tree, TargetText)
    return tree


# ---- tvmc's --target lists (grammar/tvmc.lark) ------------------------------------------------

#: One entry of a tvmc list: its name, and its option words as written, each with its offset.
TvmcSyntax = tuple[Word, tuple[Word, ...]]


def parse_tvmc_list(text: str) -> list[TvmcSyntax]:
    """The entries of a tvmc ``--target`` list; ``SyntaxProblem`` with an offset into ``text``."""
    from lark import Token, Tree
    from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

    try:
        tree = tvmc_parser().parse(text, start="targets")
    except UnexpectedCharacters as e:
        offset = e.pos_in_stream or 0
        char = text[offset] if offset < len(text) else ""
        if char in "'\"" and text.find(char, offset + 1) < 0:
            raise SyntaxProblem(f"mismatched quote: this {char} is never closed", offset) from None
        if char in "'\"":
            raise SyntaxProblem(f"unexpected quote: quotes belong in a value "
                                f"(-key={char}...{char})", offset) from None
        raise SyntaxProblem(f"unexpected {char!r}: options are written -key=value after a "
                            "name, entries are separated by ','", offset) from None
    except UnexpectedToken as e:
        raise _tvmc_token_problem(e.token, text) from None
    except UnexpectedInput as e:  # pragma: no cover - LALR raises only the two above
        raise SyntaxProblem("cannot read the target list",
                            getattr(e, "pos_in_stream", 0) or 0) from None
    entries: list[TvmcSyntax] = []
    assert isinstance(tree, Tree)
    for node in tree.children:
        assert isinstance(node, Tree)
        name, *option_words = node.children
        assert isinstance(name, Token)
        options = tuple(Word(str(w), w.start_pos or 0) for w in option_words if isinstance(w, Token))
        entries.append((Word(str(name), name.start_pos or 0), options))
    return entries


def _tvmc_token_problem(token: Token, text: str) -> SyntaxProblem:
    at = token.start_pos if token.start_pos is not None else len(text)
    if token.type == "$END":
        if not text.strip():
            return SyntaxProblem("empty target list: expected a codegen or target name",
                                 len(text))
        return SyntaxProblem("expected a codegen or target name after ','", len(text))
    if token.type == "_COMMA":
        return SyntaxProblem("expected a codegen or target name before ','", at)
    if token.type == "NAME":
        before = re.search(r"(?:^|\s)(-+[^\s,'\"=]+)\s+$", text[:at])
        if before is not None:
            return SyntaxProblem(
                f"{str(token)!r} is not an option: tvmc writes a value with '=' "
                f"({before.group(1)}={token}), and separates entries with ','", at)
        return SyntaxProblem(f"{str(token)!r} is not an option: options start with '-', "
                             "and entries are separated by ','", at)
    if token.type == "OPTION":
        return SyntaxProblem(f"expected a codegen or target name before the option "
                             f"{str(token)!r}", at)
    return SyntaxProblem(f"unexpected {str(token)!r}", at)  # pragma: no cover


def is_tvmc_kind_option(word: str) -> bool:
    """Whether ``word`` is one ``--target-KIND-OPTION[=VALUE]`` word (grammar/tvmc.lark)."""
    from lark.exceptions import UnexpectedInput

    try:
        tvmc_parser().parse(word, start="kind_option")
    except UnexpectedInput:
        return False
    return True

