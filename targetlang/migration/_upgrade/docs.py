"""Markdown and reStructuredText: their code blocks. Python blocks (doctest prompts
included) go through the engine, shell and console blocks through the shell handler; the
block's indentation is kept. Prose is never a site: a legacy-looking string there has no
known role."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterator

from . import python, shell
from .common import Lines, Options, Outcome
from .embed import Piece, lift

__all__ = ["handle_markdown", "handle_rst"]

_PYTHON = {"python", "py", "python3", "py3", "ipython", "ipython3", "pycon", "pytb",
           "doctest", "testcode", "testsetup", "default"}
_SHELL = {"sh", "bash", "shell", "zsh", "console", "shell-session", "shellsession",
          "terminal", "bash-session", "ksh"}
_FENCE = re.compile(r"([ \t]*)(`{3,}|~{3,})[ \t]*(.*?)[ \t]*$")
_DIRECTIVE = re.compile(r"([ \t]*)\.\.[ \t]+(code-block|code|sourcecode|ipython|testcode|"
                        r"testsetup|doctest|code-cell|jupyter-execute)::[ \t]*(\S*)")
_HIGHLIGHT = re.compile(r"[ \t]*\.\.[ \t]+highlight::[ \t]*(\S+)")
_PROMPT_PY = re.compile(r"(>>>|\.\.\.)(?: |$)")

Handler = Callable[[str, str, Options], Outcome]


def _lines(text: str) -> list[tuple[int, str]]:
    """Each line with its offset, its ending kept (\\n, \\r\\n or \\r)."""
    found, at = [], 0
    for line in re.findall(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z", text):
        found.append((at, line))
        at += len(line)
    return found


def _language(info: str) -> str:
    words = info.replace("{", " ").replace("}", " ").replace(",", " ").split()
    words = [w.lstrip(".").lower() for w in words]
    while words and words[0] in ("code-cell", "code-block", "code", "sourcecode", "eval-rst"):
        words = words[1:]
    return words[0] if words else ""


def _body(line: str) -> str:
    return line.rstrip("\r\n")


def _pieces(block: list[tuple[int, str]], strip: int, language: str) -> tuple[list[Piece], str]:
    """The program of a block's lines (``strip`` characters of indentation removed): Python
    (doctest prompts read as Python reads them, the output left out) or shell (console
    ``$`` prompts). Returns the pieces and the handler's kind."""
    bodies = []
    for offset, line in block:
        indent = len(line) - len(line.lstrip(" \t"))
        cut = min(strip, indent)
        bodies.append((offset + cut, line[cut:]))
    kind = "python" if language in _PYTHON else "shell"
    pieces: list[Piece] = []
    prompts = kind == "python" and any(
        _PROMPT_PY.match(body) and body.startswith(">>>") for _, body in bodies)
    console = kind == "shell" and any(body.startswith("$ ") for _, body in bodies)
    continued = False
    for origin, body in bodies:
        ending = body[len(_body(body)):] or "\n"
        if prompts:
            match = _PROMPT_PY.match(body)
            if match:
                pieces.append(Piece(body[match.end():], origin + match.end()))
            else:
                pieces.append(Piece(ending, None))
        elif console:
            if continued or body.startswith("$ "):
                cut = 0 if continued else 2
                pieces.append(Piece(body[cut:], origin + cut))
                continued = _body(body).endswith("\\")
            else:
                pieces.append(Piece(ending, None))
        elif kind == "python" and python.is_magic(body):
            pieces.append(Piece(python.neutral(body), origin))
        else:
            pieces.append(Piece(body, origin))
    return pieces, kind


def _run(blocks: Iterator[tuple[list[tuple[int, str]], int, str]], text: str, path: str,
         options: Options) -> Outcome:
    outcome = Outcome()
    host_lines = Lines(text)
    for block, strip, language in blocks:
        if language not in _PYTHON and language not in _SHELL or not block:
            continue
        pieces, kind = _pieces(block, strip, language)
        program = "".join(piece.text for piece in pieces)
        if not program.strip():
            continue
        handler: Handler = python.handle if kind == "python" else shell.handle
        inner = handler(program, path, options)
        if inner.invalid is not None:
            continue  # a fragment, pseudo-code, or output: no site can be known in it
        lifted = lift(inner, pieces, text, host_lines, path=path)
        lifted.changes = [dataclasses.replace(c, site=f"{kind} code block")
                          for c in lifted.changes]
        lifted.reported = {f"{kind} code block": len(lifted.findings)} if lifted.findings \
            else {}
        outcome.merge(lifted)
    return outcome


def _markdown_blocks(text: str) -> Iterator[tuple[list[tuple[int, str]], int, str]]:
    lines = _lines(text)
    index = 0
    while index < len(lines):
        match = _FENCE.fullmatch(_body(lines[index][1]))
        if not match or (match.group(2)[0] == "`" and "`" in match.group(3)):
            index += 1
            continue
        indent, fence, info = match.groups()
        close = re.compile(re.escape(fence[0]) + "{" + str(len(fence)) + r",}[ \t]*")
        block: list[tuple[int, str]] = []
        index += 1
        while index < len(lines) and not close.fullmatch(_body(lines[index][1]).lstrip(" \t")):
            block.append(lines[index])
            index += 1
        index += 1
        yield block, len(indent), _language(info)


def handle_markdown(text: str, path: str, options: Options) -> Outcome:
    return _run(_markdown_blocks(text), text, path, options)


def _rst_blocks(text: str) -> Iterator[tuple[list[tuple[int, str]], int, str]]:
    lines = _lines(text)
    default = "python"
    index = 0

    def indent_of(line: str) -> int:
        return len(line) - len(line.lstrip(" \t"))

    while index < len(lines):
        body = _body(lines[index][1])
        highlight = _HIGHLIGHT.match(body)
        if highlight:
            default = _language(highlight.group(1))
            index += 1
            continue
        directive = _DIRECTIVE.match(body)
        literal = not directive and body.rstrip().endswith("::") and \
            not body.lstrip().startswith("..")
        if not directive and not literal:
            index += 1
            continue
        base = indent_of(body)
        if directive:
            language = _language(directive.group(3)) if directive.group(3) else default
            if directive.group(2) in ("ipython", "doctest", "testcode", "testsetup",
                                      "jupyter-execute"):
                language = "python"
        else:
            language = default
        index += 1
        while index < len(lines) and _body(lines[index][1]).strip().startswith(":") and \
                indent_of(lines[index][1]) > base:
            index += 1  # directive options
        block: list[tuple[int, str]] = []
        while index < len(lines):
            line = lines[index][1]
            if _body(line).strip() and indent_of(line) <= base:
                break
            block.append(lines[index])
            index += 1
        content = [indent_of(line) for _, line in block if _body(line).strip()]
        if content:
            yield block, min(content), language


def handle_rst(text: str, path: str, options: Options) -> Outcome:
    return _run(_rst_blocks(text), text, path, options)
