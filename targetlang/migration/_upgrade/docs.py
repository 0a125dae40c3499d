"""Markdown and reStructuredText: their code blocks. Python blocks (doctest prompts
included) go through the engine, shell and console blocks through the shell handler; the
block's indentation is kept. Prose is never rewritten: inline code holding a legacy target
is reported (TL606), as is a call in any block named like a removed helper on a name the
block does not show to be ``tvm.target`` (TL505)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterator

from . import configs, python, shell
from .common import Finding, Lines, Options, Outcome, Quiet
from .embed import Piece, lift
from .suppress import DIRECTIVE, directive_codes, python_comment_lines

__all__ = ["handle_markdown", "handle_rst"]

_PYTHON = {"python", "py", "python3", "py3", "ipython", "ipython3", "pycon", "pytb",
           "doctest", "testcode", "testsetup", "default"}
_SHELL = {"sh", "bash", "shell", "zsh", "console", "shell-session", "shellsession",
          "terminal", "bash-session", "ksh"}
_CONFIGS = {"json": configs.handle_json, "json5": None, "jsonc": None,
            "yaml": configs.handle_yaml, "yml": configs.handle_yaml,
            "toml": configs.handle_toml}
#: languages of blocks that show text (output, logs): a site only where the block turns out
#: to be code all the same
_TEXT = {"text", "txt", "output", "plain", "plaintext", "log", "none", "diff", "raw", "console-output",
         "md", "markdown", "rst", "html", "xml", "csv", "json5", "jsonc"}
#: a block without a language: read as what it turns out to be
UNLABELLED = ""
#: the first word of a line of commands (a block without a language that is shell)
_COMMAND = re.compile(r"[ \t]*(?:\$[ \t]+|(?:sudo|export|cd|python[\d.]*|pip3?|tvmc|git|make|"
                      r"cmake|bash|sh|conda|mkdir|wget|curl|echo|source|docker|apt(?:-get)?|"
                      r"[A-Za-z_][A-Za-z0-9_]*=\S*|(?:\.{1,2}/|/|~/)\S+)(?:[ \t]|$))")
#: a line of words (a command of a tool the page names, ``./build/run --target ...``), and an
#: option among them: a block of such lines that is not Python is commands
_WORDS = re.compile(r"[ \t]*[\w./~+-]+(?:[ \t]+(?:\S+))*[ \t]*\\?[ \t]*$")
_OPTION = re.compile(r"(?:^|[ \t])--?[A-Za-z][\w-]*")
_HTML_DIRECTIVE = re.compile(r"[ \t]*<!--[ \t]*" + DIRECTIVE.pattern + r"[ \t]*-->[ \t]*$",
                             re.I)
_RST_DIRECTIVE = re.compile(r"[ \t]*\.\.[ \t]+" + DIRECTIVE.pattern + r"[ \t]*$", re.I)
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


#: one block: its lines (offset, text), the indentation to strip, its language, and the
#: codes a comment before it suppresses (None: none; an empty set: every code)
Block = tuple[list[tuple[int, str]], int, str, "frozenset[str] | None"]


def _unlabelled(block: list[tuple[int, str]], strip: int) -> str | None:
    """What a block without a language is: "python" when it parses as Python (doctest
    prompts included), "sh" when its lines are commands, else None."""
    import ast
    import warnings

    lines = [line[min(strip, len(line) - len(line.lstrip(" \t"))):] for _, line in block]
    body = "".join(lines)
    if not body.strip():
        return None
    if any(line.startswith(">>>") for line in lines):
        return "python"
    commands = [line for line in _logical(lines) if line.strip() and
                not line.lstrip().startswith("#")]
    if commands and all(_COMMAND.match(line) or line.rstrip().endswith("\\") for line in
                        commands[:1]) and sum(bool(_COMMAND.match(c)) for c in commands) * 2 \
            >= len(commands):
        return "sh"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(body)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        from .._pysites import looks_like_legacy  # (a target printed is no command)

        if commands and all(_WORDS.match(line) and not looks_like_legacy(line)
                            for line in commands) and \
                any(_OPTION.search(line) for line in commands):
            return "sh"
        return None
    # a lone name or a sentence-like expression is prose, not a program
    if len(tree.body) == 1 and isinstance(tree.body[0], ast.Expr) and \
            isinstance(tree.body[0].value, (ast.Name, ast.Constant, ast.Compare, ast.BinOp)):
        return None
    return "python"


def _logical(lines: list[str]) -> list[str]:
    """Lines continued with a trailing backslash joined: one command each."""
    joined: list[str] = []
    continued = False
    for line in lines:
        if continued:
            joined[-1] = joined[-1].rstrip()[:-1] + " " + line.lstrip()
        else:
            joined.append(line)
        continued = line.rstrip().endswith("\\")
    return joined


def _holds_target(text: str) -> bool:
    """Whether text holds what looks like a legacy target string (a kind and an option)."""
    from .._pysites import looks_like_legacy  # the one cheap look at a legacy string

    return any(looks_like_legacy(part) for part in re.split(r"[\"'`\n]", text)
               if " -" in part)


def _run(blocks: Iterator[Block], text: str, path: str, options: Options,
         inline: re.Pattern[str], directive: re.Pattern[str]) -> Outcome:
    outcome = Outcome()
    host_lines = Lines(text)
    docs_options = dataclasses.replace(options, docs=True)
    #: the page's Python blocks, read together as one program after the others
    python_blocks: list[tuple[list[Piece], frozenset[str] | None]] = []
    seen: list[tuple[list[tuple[int, str]], frozenset[str] | None]] = []
    try:
        _blocks(blocks, seen, text, host_lines, path, options, docs_options, python_blocks,
                outcome)
    finally:
        if python_blocks:
            outcome.merge(_python_page(python_blocks, text, host_lines, path, docs_options))
    _helper_like(seen, host_lines, path, options, outcome)
    _inline_code(seen, text, host_lines, path, options, outcome, inline, directive)
    return outcome


#: what prose shows as code: `x` and ``x`` (Markdown), ``x`` and the interpreted text `x`
#: (reStructuredText, a :code: role's too)
_MARKDOWN_INLINE = re.compile(r"(?<!`)(`+)(?!`)([^`\r\n]+?)(?<!`)\1(?!`)")
_RST_INLINE = re.compile(r"(?<!`)(``?)(?!`)([^`\r\n]+?)(?<!`)\1(?!`)")


def _inline_code(seen: list[tuple[list[tuple[int, str]], frozenset[str] | None]], text: str,
                 host_lines: Lines, path: str, options: Options, outcome: Outcome,
                 inline: re.Pattern[str], directive: re.Pattern[str]) -> None:
    """Inline code in prose holding a legacy target or a call of a removed helper
    (`tvm.target.cuda()`): reported (prose is never rewritten)."""
    # (imported on first use: the engine's Python module imports this one)
    from .._pysites import looks_like_legacy, older_helpers, removed_helpers

    if "`" not in text:
        return

    helper_call = re.compile(r"(?<![\w.])(?:tvm\.target\.(?:target\.)?)(?:" + "|".join(
        sorted(removed_helpers(options.target_dialect) | older_helpers())) + r")\(")
    in_blocks = {offset for block, _ in seen for offset, _ in block}
    lines = _lines(text)
    quiet = options.quiet()
    for index, (offset, line) in enumerate(lines):
        if offset in in_blocks or "`" not in line:
            continue
        for match in inline.finditer(line):
            code = match.group(match.lastindex or 0).strip()
            helper = helper_call.search(code) is not None  # `tvm.target.cuda()` in prose
            if not helper and not looks_like_legacy(code):
                continue
            suppressed = _before(lines, index, directive)
            if suppressed is not None and (not suppressed or "TL606" in suppressed or any(
                    "TL606".startswith(c) for c in suppressed)):
                continue
            at, column = host_lines.position(offset + match.start())
            if quiet.covers("TL606", at):
                continue
            what = "calls a helper TVM 0.24 removed" if helper else "is a legacy target string"
            outcome.report(Finding(path, at, column, f"inline code {code!r} in prose {what}: "
                                   "prose is never rewritten; if readers copy it as a target, "
                                   "write it as JSON (`targetlang migrate TARGET` prints it), "
                                   "else suppress this code", "TL606"), "inline code")


#: helpers whose names say little alone (x.cuda() is PyTorch's, tvm.cuda(0) and
#: tvm.hexagon(0) are devices): named like a helper only on a name that says target
#: (``t.target.cuda``, ``tgt.cuda``) or is a near miss of ``tvm.target`` (``tvm.garget``)
_GENERIC_HELPERS = frozenset({"cuda", "rocm", "create", "x86", "hexagon"})


def _says_target(receiver: str) -> bool:
    name = receiver.rstrip(".")
    if re.search(r"targ|tgt", name, re.I):
        return True
    return name != "tvm" and name.startswith("tvm.") and _distance(name, "tvm.target") <= 2


def _distance(a: str, b: str) -> int:
    """The edit distance of two short strings."""
    row = list(range(len(b) + 1))
    for i, char in enumerate(a, 1):
        previous, row[0] = row[0], i
        for j, other in enumerate(b, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1,
                                           previous + (char != other))
    return row[-1]


def _helper_like(seen: list[tuple[list[tuple[int, str]], frozenset[str] | None]],
                 host_lines: Lines, path: str, options: Options, outcome: Outcome) -> None:
    """A call named like a removed helper on a name the block does not show to be
    tvm.target (``tvm.garget.arm_cpu(...)``, ``arm_cpu(...)`` alone), on a line where
    nothing else was rewritten or reported: reported."""
    from .._pysites import older_helpers, removed_helpers  # (first use)

    helpers = removed_helpers(options.target_dialect) | older_helpers()
    pattern = re.compile(r"(?<![\w.])((?:[A-Za-z_]\w*\.)*)(" + "|".join(sorted(helpers)) +
                         r")[ \t]*\(")
    known = {f.line for f in outcome.findings} | {c.line for c in outcome.changes}
    quiet = options.quiet()
    for block, suppressed in seen:
        if suppressed is not None and (not suppressed or any(
                "TL505".startswith(c) for c in suppressed)):
            continue
        for offset, line in block:
            for match in pattern.finditer(line):
                receiver, name = match.group(1), match.group(2)
                if line[:match.start()].rstrip().endswith("def"):
                    continue
                if name in _GENERIC_HELPERS and not _says_target(receiver):
                    continue
                at, column = host_lines.position(offset + match.start())
                if at in known or quiet.covers("TL505", at):
                    continue
                known.add(at)
                outcome.report(Finding(path, at, column, f"{receiver}{name}(...) is named like "
                                       f"tvm.target.{name}, which TVM 0.24 removed, on a name "
                                       "this block does not show to be tvm.target: not "
                                       "rewritten; if it is the helper, write "
                                       "tvm.target.Target({...}) of its JSON (`targetlang "
                                       "migrate`), else suppress this code", "TL505"),
                               "helper-like call")


def _blocks(blocks: Iterator[Block],
            seen: list[tuple[list[tuple[int, str]], frozenset[str] | None]], text: str,
            host_lines: Lines, path: str, options: Options, docs_options: Options,
            python_blocks: list[tuple[list[Piece], frozenset[str] | None]],
            outcome: Outcome) -> None:
    for block, strip, language, suppressed in blocks:
        if not block:
            continue
        seen.append((block, suppressed))
        block_options = docs_options
        if suppressed is not None:
            block_options = dataclasses.replace(
                docs_options, ignore=docs_options.ignore | (suppressed or {"ALL"}))
        if language == UNLABELLED:
            found = _unlabelled(block, strip)
            if found is None:
                body = "".join(line for _, line in block)
                if _holds_target(body) and not block_options.quiet().covers("TL603", 1):
                    at = next((o for o, text_line in block if _holds_target(text_line)),
                              block[0][0])
                    line, column = host_lines.position(at)
                    outcome.report(Finding(path, line, column, "a code block without a "
                                           "language holds what looks like a legacy target, "
                                           "but is neither Python nor shell commands: not "
                                           "rewritten", "TL603"), "text code block")
                continue
            language = found
        if language in _TEXT:
            # a block labelled as text often holds code (```plain in translated docs): it is
            # read as what it turns out to be when that is code; else it shows output
            found = _unlabelled(block, strip)
            if found is None or (found == "sh" and not any(  # words alone are output here
                    _COMMAND.match(line) for _, line in block)):
                continue
            language = found
        config = _CONFIGS.get(language)
        if language not in _PYTHON and language not in _SHELL and config is None:
            body = "".join(line for _, line in block)
            if language not in _TEXT and _holds_target(body) and \
                    not block_options.quiet().covers("TL603", 1):
                at = next((o for o, text_line in block if _holds_target(text_line)),
                          block[0][0])
                line, column = host_lines.position(at)
                outcome.report(Finding(path, line, column, f"a {language} code block holds "
                                       "what looks like a legacy target, in a language the "
                                       "upgrade does not read (it reads Python, shell and "
                                       "configs): not rewritten; rewrite it by hand (as JSON, "
                                       "`targetlang migrate TARGET`) or suppress this code",
                                       "TL603"), f"{language} code block")
            continue
        pieces, kind = _pieces(block, strip, language)
        program = "".join(piece.text for piece in pieces)
        if not program.strip():
            continue
        if config is None and kind == "python":
            why = _not_python(program)
            if why is None:
                python_blocks.append((pieces, suppressed))
                continue
            if _holds_target(program) or "tvm.target" in program:
                line, column = host_lines.position(block[0][0])
                finding = Finding(path, line, column, f"a {language or kind} code block holds "
                                  "what looks like a legacy target, but is not valid Python "
                                  f"({why}): no site in it can be known", "TL004")
                if not block_options.quiet().covers("TL004", 1):
                    outcome.report(finding, "python code block")
            continue
        handler: Handler = config if config is not None else shell.handle
        kind = language if config is not None else kind
        inner = handler(program, path, block_options)
        if inner.invalid is not None:
            if _holds_target(program):
                line, column = host_lines.position(block[0][0])
                finding = Finding(path, line, column, f"a {language or kind} code block holds "
                                  f"what looks like a legacy target, but is not valid "
                                  f"{language or kind} ({inner.invalid.message}): no site in "
                                  f"it can be known", "TL004")
                if not block_options.quiet().covers("TL004", 1):
                    outcome.report(finding, f"{kind} code block")
            continue
        outcome.merge(_lifted(inner, pieces, text, host_lines, path, f"{kind} code block"))


def _lifted(inner: Outcome, pieces: list[Piece], text: str, host_lines: Lines, path: str,
            site: str) -> Outcome:
    lifted = lift(inner, pieces, text, host_lines, path=path)
    lifted.changes = [dataclasses.replace(c, site=site) for c in lifted.changes]
    lifted.reported = {site: len(lifted.findings)} if lifted.findings else {}
    lifted.suppressed = inner.suppressed
    return lifted


def _python_page(blocks: list[tuple[list[Piece], frozenset[str] | None]], text: str,
                 host_lines: Lines, path: str, options: Options) -> Outcome:
    """A page's Python blocks (each valid Python alone) read as one program, in the page's
    order, as a notebook's cells are: a name one block binds is the name a later block
    reads. A comment before a block suppresses its codes on its lines only."""
    pieces: list[Piece] = []
    lines: dict[int, frozenset[str] | None] = {}
    for number, (block_pieces, suppressed) in enumerate(blocks):
        if number:
            pieces.append(Piece("\n", None))  # (each block ends its last line)
        first = sum(piece.text.count("\n") for piece in pieces) + 1
        pieces += block_pieces
        if suppressed is not None:
            last = sum(piece.text.count("\n") for piece in pieces) + 1
            for line in range(first, last + 1):
                lines[line] = suppressed or None
    program = "".join(piece.text for piece in pieces)
    quiet = Quiet({**python_comment_lines(program), **lines}, options.ignore)
    inner = python.handle(program, path, options, quiet=quiet)
    if inner.invalid is not None:  # (never: blocks valid alone are valid together)
        return Outcome()
    return _lifted(inner, pieces, text, host_lines, path, "python code block")


def _not_python(program: str) -> str | None:
    """Why Python cannot read a block alone, or None."""
    import ast
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(program)
    except SyntaxError as error:
        return f"not Python: {error.msg}"
    except (ValueError, RecursionError, MemoryError) as error:
        return f"not Python: {type(error).__name__}"
    return None


def _before(lines: list[tuple[int, str]], index: int, pattern: re.Pattern[str]
            ) -> frozenset[str] | None:
    """The codes a directive comment on the line before ``index`` (blank lines between
    allowed) suppresses: None when there is none, an empty set for every code."""
    at = index - 1
    while at >= 0 and not lines[at][1].strip():
        at -= 1
    if at < 0:
        return None
    match = pattern.match(_body(lines[at][1]))
    if match is None:
        return None
    codes = directive_codes(match.group(1))
    return frozenset() if codes is None else codes


_LIST_ITEM = re.compile(r"[ \t]*(?:[-*+]|\d+[.)])[ \t]+\S")


def _markdown_blocks(text: str) -> Iterator[Block]:
    lines = _lines(text)
    index = 0
    in_list = False
    previous_blank = True
    while index < len(lines):
        body = _body(lines[index][1])
        match = _FENCE.fullmatch(body)
        if not match or (match.group(2)[0] == "`" and "`" in match.group(3)):
            if not body.strip():
                previous_blank = True
                index += 1
                continue
            if _LIST_ITEM.match(body):
                in_list = True
            elif not body.startswith((" ", "\t")):
                in_list = False
            indented = body.startswith(("    ", "\t"))
            if indented and previous_blank and not in_list:
                # an indented code block: its lines, blank ones between them included
                start = index
                block: list[tuple[int, str]] = []
                while index < len(lines) and (
                        _body(lines[index][1]).startswith(("    ", "\t")) or
                        not _body(lines[index][1]).strip()):
                    block.append(lines[index])
                    index += 1
                while block and not _body(block[-1][1]).strip():
                    block.pop()
                yield block, 4, UNLABELLED, _before(lines, start, _HTML_DIRECTIVE)
                previous_blank = False
                continue
            previous_blank = False
            index += 1
            continue
        indent, fence, info = match.groups()
        close = re.compile(re.escape(fence[0]) + "{" + str(len(fence)) + r",}[ \t]*")
        suppressed = _before(lines, index, _HTML_DIRECTIVE)
        block = []
        index += 1
        while index < len(lines) and not close.fullmatch(_body(lines[index][1]).lstrip(" \t")):
            block.append(lines[index])
            index += 1
        index += 1
        previous_blank = False
        yield block, len(indent), _language(info), suppressed


def handle_markdown(text: str, path: str, options: Options) -> Outcome:
    return _run(_markdown_blocks(text), text, path, options, _MARKDOWN_INLINE,
                _HTML_DIRECTIVE)


def _rst_blocks(text: str) -> Iterator[Block]:
    lines = _lines(text)
    default = UNLABELLED
    index = 0

    def indent_of(line: str) -> int:
        return len(line) - len(line.lstrip(" \t"))

    previous_blank = True
    while index < len(lines):
        body = _body(lines[index][1])
        highlight = _HIGHLIGHT.match(body)
        if highlight:
            default = _language(highlight.group(1))
            index += 1
            continue
        if previous_blank and body.lstrip().startswith(">>>"):
            # a doctest block: a paragraph of prompts and output, no directive needed
            start, base = index, indent_of(body)
            paragraph: list[tuple[int, str]] = []
            while index < len(lines) and _body(lines[index][1]).strip():
                paragraph.append(lines[index])
                index += 1
            yield paragraph, base, "pycon", _before(lines, start, _RST_DIRECTIVE)
            continue
        previous_blank = not body.strip()
        directive = _DIRECTIVE.match(body)
        literal = not directive and body.rstrip().endswith("::") and \
            not body.lstrip().startswith("..")
        if not directive and not literal:
            index += 1
            continue
        suppressed = _before(lines, index, _RST_DIRECTIVE)
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
            yield block, min(content), language, suppressed
        previous_blank = True


def handle_rst(text: str, path: str, options: Options) -> Outcome:
    return _run(_rst_blocks(text), text, path, options, _RST_INLINE, _RST_DIRECTIVE)
