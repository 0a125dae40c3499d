"""Jupyter notebooks: the code cells are one Python program (what one cell imports, the
next uses); only the JSON strings of the source lines that change are written again."""

from __future__ import annotations

import bisect
import json
from typing import Any

from .._pysites import might_have_sites
from . import jsonspan
from . import shell as shell_handler
from .common import Change, Edit, Finding, Lines, Options, Outcome, Quiet
from .python import comment, is_magic, neutral, run_engine
from .suppress import python_comment_lines

__all__ = ["handle"]

SITE = "notebook cell"
#: Cell magics whose body is Python.
_PYTHON_CELL_MAGICS = ("%%time", "%%timeit", "%%capture", "%%prun")
_SHELL_CELL_MAGICS = ("%%bash", "%%sh", "%%shell", "%%system")


class _Cell:
    """A code cell: its number (from 1, every cell counted), the JSON strings of its
    source, and its text."""

    def __init__(self, number: int, source: jsonspan.JString | jsonspan.JArray) -> None:
        self.number = number
        self.source = source
        self.strings = [source] if isinstance(source, jsonspan.JString) else [
            s for s in source.items if isinstance(s, jsonspan.JString)]
        self.text = "".join(s.value for s in self.strings)
        self.lines = self.text.splitlines(keepends=True)

    def _kinds(self) -> list[str]:
        """What each line is: "python", "shell" (``!cmd`` and its continuation lines, the
        body of a ``%%bash`` cell) or "magic" (other IPython syntax)."""
        lines = self.lines
        if lines and lines[0].startswith("%%"):
            magic = lines[0].split()[0]
            if magic in _SHELL_CELL_MAGICS or lines[0].split()[:2] in (
                    ["%%script", "bash"], ["%%script", "sh"]):
                return ["magic"] + ["shell"] * (len(lines) - 1)
            if magic not in _PYTHON_CELL_MAGICS:
                return ["magic"] * len(lines)
        kinds: list[str] = []
        continued = None
        for number, line in enumerate(lines):
            if continued is not None:
                kinds.append(continued)
            elif number == 0 and line.startswith("%%"):
                kinds.append("magic")
            elif line.lstrip(" \t").startswith("!"):
                kinds.append("shell")
            else:
                kinds.append("magic" if is_magic(line) else "python")
            body = line.rstrip("\r\n")
            continued = kinds[-1] if kinds[-1] != "python" and body.endswith("\\") else None
        return kinds

    def program(self) -> str:
        """The cell as Python: IPython lines made neutral, lengths kept."""
        out, previous = [], "python"
        for line, kind in zip(self.lines, self._kinds()):
            # the first line of an IPython statement keeps a block a block; its
            # continuation lines are comments, whatever their indentation
            out.append(line if kind == "python" else
                       comment(line) if previous == kind + "\\" else neutral(line))
            previous = kind + "\\" if kind != "python" and \
                line.rstrip("\r\n").endswith("\\") else kind
        return "".join(out)

    def shell(self) -> str:
        """The cell's shell lines at their places (``!`` made a space), every other
        character a space: offsets in it are offsets in the cell."""
        out = []
        for line, kind in zip(self.lines, self._kinds()):
            body = line.rstrip("\r\n")
            if kind == "shell":
                out.append(body.replace("!", " ", 1) if body.lstrip(" \t").startswith("!")
                           else body)
            else:
                out.append(" " * len(body))
            out.append(line[len(body):])
        return "".join(out)

    def blank(self) -> str:
        """The cell with every line made neutral (a cell that is not Python)."""
        return "".join(comment(line) for line in self.lines)


def _cells(root: jsonspan.Node) -> list[_Cell] | str:
    """The code cells of a notebook (nbformat 4, or 3's worksheets), or why it is not one."""
    if not isinstance(root, jsonspan.JObject):
        return "not a notebook: the JSON is not an object"
    found: list[jsonspan.Node] = []
    cells = root.get("cells")
    key = "source"
    if isinstance(cells, jsonspan.JArray):
        found = list(cells.items)
    else:
        sheets = root.get("worksheets")
        if not isinstance(sheets, jsonspan.JArray):
            return "not a notebook: no cells"
        key = "input"
        for sheet in sheets.items:
            inner = sheet.get("cells") if isinstance(sheet, jsonspan.JObject) else None
            if isinstance(inner, jsonspan.JArray):
                found += inner.items
    code: list[_Cell] = []
    for number, cell in enumerate(found, 1):
        if not isinstance(cell, jsonspan.JObject):
            return f"not a notebook: cell {number} is not an object"
        kind = cell.get("cell_type")
        source = cell.get(key)
        if isinstance(kind, jsonspan.JString) and kind.value == "code" and \
                isinstance(source, (jsonspan.JString, jsonspan.JArray)):
            code.append(_Cell(number, source))
    return code


def _language(root: jsonspan.JObject) -> str:
    metadata = root.get("metadata")
    if not isinstance(metadata, jsonspan.JObject):
        return "python"
    for section, key in (("kernelspec", "language"), ("language_info", "name")):
        holder = metadata.get(section)
        value = holder.get(key) if isinstance(holder, jsonspan.JObject) else None
        if isinstance(value, jsonspan.JString):
            return value.value.lower()
    return "python"


def handle(text: str, path: str, options: Options) -> Outcome:
    outcome = Outcome()
    try:
        root = jsonspan.parse(text)
    except (ValueError, RecursionError) as error:
        line = getattr(error, "lineno", 1)
        column = getattr(error, "colno", 1) - 1
        outcome.invalid = Finding(path, line, column, f"not a notebook: {error}", "TL001")
        return outcome
    cells = _cells(root)
    if isinstance(cells, str):
        outcome.invalid = Finding(path, 1, 0, cells, "TL001")
        return outcome
    assert isinstance(root, jsonspan.JObject)
    if not cells or not _language(root).startswith("python"):
        return outcome
    programs = [cell.program() for cell in cells]
    quiet = options.quiet()
    for index, program in enumerate(programs):  # a cell Python cannot read is set aside
        why = _not_python(program)
        if why is None:
            continue
        programs[index] = cells[index].blank()
        if might_have_sites(program):
            line, column, message = why
            finding = Finding(f"{path}:cell {cells[index].number}", line, column,
                              f"not Python: {message} (IPython syntax the upgrade does not "
                              "know?); the cell holds what may be a target and is left as "
                              "it is", "TL004")
            outcome.report(finding, SITE, quiet.shifted(python_comment_lines(program)))
    result, edits, bases, line_bases = _run(programs, path, options, quiet)
    broken = next((f for f in result.findings if f.code == "TL001"), None)
    if broken is not None:  # the cells read alone but not together: none is upgraded
        outcome.report(Finding(path, 1, 0, f"the code cells read one by one, not as one "
                                           f"program ({broken.message}); left as they are",
                               "TL004"), SITE, quiet)
        return outcome
    for finding in result.findings:
        index = _cell_of_line(line_bases, finding.line)
        outcome.report(Finding(f"{path}:cell {cells[index].number}",
                               finding.line - line_bases[index], finding.column,
                               finding.message, finding.code,
                               (finding.end_line or finding.line) - line_bases[index],
                               finding.end_column), SITE)
    by_cell: dict[int, list[Edit]] = {}
    for start, end, new in edits:
        index = min(bisect.bisect_right(bases, start) - 1, len(cells) - 1)
        if end > bases[index] + len(programs[index]):
            outcome.report(Finding(f"{path}:cell {cells[index].number}", 1, 0,
                                   "a rewrite would span two cells; not made", "TL003"), SITE)
            continue
        by_cell.setdefault(index, []).append((start - bases[index], end - bases[index], new))
    ascii_only = jsonspan.encoder_for(text)
    for index, cell in enumerate(cells):  # !shell lines and %%bash cells
        _shell_sites(cell, path, options, by_cell.setdefault(index, []), outcome)
    outcome.suppressed += result.suppressed
    for index, cell_edits in by_cell.items():
        if cell_edits:
            outcome.edits += _source_edits(cells[index], cell_edits, text, ascii_only)
    file_lines = Lines(text)
    for cell in cells:  # where each line of a cell sits in the file (SARIF, annotations)
        lines = [file_lines.position(s.start)[0] for s in cell.strings
                 for _ in range(max(1, s.value.count("\n") + (not s.value.endswith("\n"))))]
        outcome.cell_lines[cell.number] = lines or [file_lines.position(cell.source.start)[0]]
    for rewrite in result.rewrites:
        index = _cell_of_line(line_bases, rewrite.line)
        outcome.changes.append(Change(rewrite.line - line_bases[index], rewrite.column,
                                      rewrite.old, rewrite.new, rewrite.kind,
                                      f"{SITE} {cells[index].number}",
                                      code=rewrite.code,
                                      end_line=max(rewrite.end_line - line_bases[index], 0),
                                      end_column=rewrite.end_column))
    return outcome


def _run(programs: list[str], path: str, options: Options, quiet: Quiet
         ) -> tuple[Any, list[Edit], list[int], list[int]]:
    """The engine over the cells joined; with the offset and the line (from 0) each
    cell starts at in the program."""
    bases, line_bases = [0], [0]
    for program in programs:
        bases.append(bases[-1] + len(program) + 1)
        line_bases.append(line_bases[-1] + len(Lines(program).starts))
    result, edits = run_engine("\n".join(programs), path=path, options=options, quiet=quiet)
    return result, edits, bases, line_bases


def _not_python(program: str) -> tuple[int, int, str] | None:
    """Where and why Python cannot read a cell alone, or None."""
    import ast
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(program)
    except SyntaxError as error:
        return error.lineno or 1, max((error.offset or 1) - 1, 0), error.msg
    except (ValueError, RecursionError, MemoryError) as error:
        return 1, 0, type(error).__name__
    return None


def _cell_of_line(line_bases: list[int], line: int) -> int:
    """The cell (index) a line of the program (from 1) is in."""
    return max(bisect.bisect_left(line_bases, line) - 1, 0)


def _shell_sites(cell: _Cell, path: str, options: Options, edits: list[Edit],
                 outcome: Outcome) -> None:
    image = cell.shell()
    if not image.strip():
        return
    inner = shell_handler.handle(image, f"{path}:cell {cell.number}", options)
    edits += inner.edits
    outcome.findings += inner.findings
    outcome.suppressed += inner.suppressed
    for site, count in inner.reported.items():
        outcome.reported[site] = outcome.reported.get(site, 0) + count
    outcome.changes += inner.changes


def _source_edits(cell: _Cell, edits: list[Edit], text: str, ascii_only: bool) -> list[Edit]:
    """Edits of the notebook's text that make ``edits`` of one cell's source: only the JSON
    strings of the lines that change are encoded again."""
    starts = [0]
    for string in cell.strings:
        starts.append(starts[-1] + len(string.value))

    def element(offset: int) -> int:
        index = 0
        while index + 1 < len(cell.strings) and starts[index + 1] <= offset:
            index += 1
        return index

    groups: list[tuple[int, int, list[Edit]]] = []  # element ranges, merged when they touch
    for start, end, new in sorted(edits):
        first, last = element(start), element(max(end - 1, start))
        if groups and first <= groups[-1][1]:
            low, high, members = groups[-1]
            groups[-1] = (low, max(high, last), members + [(start, end, new)])
        else:
            groups.append((first, last, [(start, end, new)]))
    out: list[Edit] = []

    def encode(value: str) -> str:
        return json.dumps(value, ensure_ascii=ascii_only)

    for first, last, members in groups:
        base = starts[first]
        old = cell.text[base:starts[last + 1]]
        pieces, at = [], 0
        for start, end, new in members:
            pieces += [old[at:start - base], new]
            at = end - base
        pieces.append(old[at:])
        new_text = "".join(pieces)
        lines = new_text.splitlines(keepends=True) or [""]
        if len(lines) == last - first + 1:
            for offset, line in enumerate(lines):
                string = cell.strings[first + offset]
                if line != string.value:
                    out.append((string.start, string.end, encode(line)))
            continue
        if isinstance(cell.source, jsonspan.JString):
            out.append((cell.source.start, cell.source.end, encode(new_text)))
            continue
        separator = _separator(cell, text)
        out.append((cell.strings[first].start, cell.strings[last].end,
                    separator.join(encode(line) for line in lines)))
    return out


def _separator(cell: _Cell, text: str) -> str:
    """What the notebook writes between two lines of a cell's source (",\\n   " ...)."""
    strings = cell.strings
    if len(strings) > 1:
        return text[strings[0].end:strings[1].start]
    line_start = text.rfind("\n", 0, strings[0].start) + 1
    return ",\n" + text[line_start:strings[0].start]
