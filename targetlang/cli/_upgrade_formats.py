"""What ``targetlang upgrade`` prints: a unified diff and ``PATH:LINE:COL: CODE message``
lines (text), one JSON array of sites (json), a SARIF 2.1.0 log (sarif), or GitHub
workflow annotations (github); the summary on standard error unless ``-q``."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from .. import __version__
from ._common import Io

__all__ = ["Reporter", "list_codes", "sites"]

_CELL = re.compile(r"^(.*):cell (\d+)$")


def list_codes() -> str:
    """Every code with its meaning and what to do, family by family."""
    from ..migration._upgrade.codes import CODES, FAMILIES  # on first use

    out = []
    family = ""
    for code in CODES.values():
        if code.id[:3] != family:
            family = code.id[:3]
            out.append(f"{family}xx  {FAMILIES[family]}")
        out.append(f"  {code.id} {code.name}: {code.meaning}.\n      What to do: {code.action}.")
    for prefix, what in FAMILIES.items():
        if not any(c.startswith(prefix) for c in CODES):
            out.append(f"{prefix}xx  {what}")
    return "\n".join(out) + "\n"


def _where(path: str) -> tuple[str, int | None]:
    match = _CELL.match(path)
    return (match.group(1), int(match.group(2))) if match else (path, None)


def sites(result: Any, mode: str) -> list[dict[str, Any]]:
    """The sites of one file's result as JSON objects, in file order: path, cell (a
    notebook's, else absent), line, column, end line, end column (1-based; the end column
    just past the site), code, message, and the replacement text (null for a report)."""
    out: list[dict[str, Any]] = []
    for finding in result.findings:
        path, cell = _where(finding.path)
        item: dict[str, Any] = {"path": path}
        if cell is not None:
            item["cell"] = cell
        item.update(line=finding.line, column=finding.column + 1,
                    end_line=finding.end_line or finding.line,
                    end_column=(finding.end_column or finding.column) + 1,
                    code=finding.code, message=finding.message, replacement=None)
        out.append(item)
    done = "rewritten" if mode == "write" else "to rewrite"
    for change in result.changes:
        item = {"path": _where(result.path)[0]}
        in_cell = re.fullmatch(r"notebook cell (\d+)", change.site)
        if in_cell:
            item["cell"] = int(in_cell.group(1))
        lines = change.old.split("\n")
        end_line = change.line + len(lines) - 1
        end_column = len(lines[-1]) if len(lines) > 1 else change.column + len(change.old)
        item.update(line=change.line, column=change.column + 1, end_line=end_line,
                    end_column=end_column + 1, code=change.code,
                    message=f"{change.site}: {done} ({change.kind})", replacement=change.new)
        out.append(item)
    for item in out:  # a notebook's site: its line in the file too (SARIF, annotations)
        lines = result.cell_lines.get(item.get("cell", 0))
        if lines:
            item["file_line"] = lines[min(item["line"], len(lines)) - 1]
    out.sort(key=lambda s: (s.get("cell", 0), s["line"], s["column"]))
    return out


class Reporter:
    """Writes a run's output in one format as the files come."""

    def __init__(self, io: Io, form: str, mode: str, *, quiet: bool = False) -> None:
        self.io, self.form, self.mode, self.quiet = io, form, mode, quiet
        self.items: list[dict[str, Any]] = []
        self.failures: list[dict[str, Any]] = []

    # ---- per file ------------------------------------------------------------------------

    def file(self, result: Any, *, diff: bool = True) -> None:
        io = self.io
        if self.form == "text":
            for finding in result.findings:
                io.stderr.write(f"{_paint_finding(io, str(finding))}\n")
            if result.changed:
                if self.mode == "diff" and diff:
                    io.stdout.write(_coloured_diff(io, result.diff()))
                elif self.mode == "check":
                    io.stderr.write(f"would rewrite {result.path}\n")
                elif not self.quiet and diff:
                    io.stderr.write(f"rewrote {result.path}\n")
            return
        found = sites(result, self.mode)
        if self.form == "github":
            for item in found:
                io.stdout.write(_annotation(item, self.mode) + "\n")
        self.items += found

    def unreadable(self, path: str, why: str) -> None:
        self.io.error(f"{path}: {why}")
        self.failures.append({"path": path, "line": 1, "column": 1, "end_line": 1,
                              "end_column": 1, "code": "TL006", "message": why,
                              "replacement": None})

    # ---- at the end ----------------------------------------------------------------------

    def finish(self, total: Any, file_types: Mapping[str, str]) -> None:
        io = self.io
        if self.form == "json":
            io.stdout.write(json.dumps(self.failures + self.items, indent=2,
                                       ensure_ascii=False) + "\n")
        elif self.form == "sarif":
            io.stdout.write(json.dumps(sarif(self.failures + self.items), indent=2,
                                       ensure_ascii=False) + "\n")
        elif self.form == "github":
            for item in self.failures:
                io.stdout.write(_annotation(item, self.mode) + "\n")
        if not self.quiet:
            for line in total.lines():
                io.stderr.write(line + "\n")


def _annotation(item: Mapping[str, Any], mode: str) -> str:
    """A GitHub workflow command: ``::error file=...,line=...::message``."""
    def escape(text: str, *, prop: bool = False) -> str:
        text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
        return text.replace(":", "%3A").replace(",", "%2C") if prop else text

    fix = item["replacement"] is not None
    level = "error" if not fix or mode == "check" else "notice"
    if "file_line" in item:  # a notebook: the line of the cell's source in the file
        where = f"file={escape(item['path'], prop=True)},line={item['file_line']}"
    else:
        where = f"file={escape(item['path'], prop=True)},line={item['line']}," \
                f"col={item['column']},endLine={item['end_line']}," \
                f"endColumn={item['end_column']}"
    title = escape(f"targetlang {item['code']}", prop=True)
    cell = f"cell {item['cell']}:{item['line']}:{item['column']}: " if item.get("cell") else ""
    message = item["message"] + (f" -> {item['replacement']}" if fix else "")
    return f"::{level} {where},title={title}::{escape(cell + message)}"


def sarif(items: list[dict[str, Any]]) -> dict[str, Any]:
    """A SARIF 2.1.0 log of the sites (a fix for each rewrite)."""
    from ..migration._upgrade.codes import CODES  # on first use

    used = sorted({item["code"] for item in items if item["code"] in CODES})
    rules = [{"id": code, "name": CODES[code].name,
              "shortDescription": {"text": CODES[code].meaning.split(";")[0]},
              "fullDescription": {"text": CODES[code].meaning},
              "help": {"text": CODES[code].action},
              "defaultConfiguration": {"level": _level(CODES[code].level)}}
             for code in used]
    index = {code: number for number, code in enumerate(used)}
    results = []
    for item in items:
        if "file_line" in item:  # a notebook: the line of the cell's source in the file
            region: dict[str, Any] = {"startLine": item["file_line"]}
        else:
            region = {"startLine": item["line"], "startColumn": item["column"],
                      "endLine": item["end_line"], "endColumn": item["end_column"]}
        location = {"physicalLocation": {"artifactLocation": {"uri": _uri(item["path"])},
                                         "region": region}}
        result: dict[str, Any] = {"ruleId": item["code"], "message": {"text": item["message"]},
                                  "locations": [location]}
        if item["code"] in index:
            result["ruleIndex"] = index[item["code"]]
            result["level"] = _level(CODES[item["code"]].level)
        if item.get("cell"):
            result["properties"] = {"cell": item["cell"], "cellLine": item["line"],
                                    "cellColumn": item["column"]}
        if item["replacement"] is not None:
            result["fixes"] = [{"description": {"text": "the upgrade's rewrite"},
                                "artifactChanges": [{
                                    "artifactLocation": {"uri": _uri(item["path"])},
                                    "replacements": [{"deletedRegion": region,
                                                      "insertedContent": {
                                                          "text": item["replacement"]}}]}]}]
        results.append(result)
    return {"$schema": "https://json.schemastore.org/sarif-2.1.0.json", "version": "2.1.0",
            "runs": [{"tool": {"driver": {"name": "targetlang", "version": __version__,
                                          "rules": rules}},
                      "columnKind": "unicodeCodePoints", "results": results}]}


def _level(level: str) -> str:
    return {"fix": "warning", "failure": "error"}.get(level, "error")


def _uri(path: str) -> str:
    from urllib.parse import quote

    return quote(path.replace("\\", "/").lstrip("/") if not path.startswith("/") else
                 "file://" + path, safe="/:")


def _paint_finding(io: Io, line: str) -> str:
    match = re.match(r"^(.*?:\d+:\d+:) (TL\d+)( .*)$", line, re.S)
    if not match or not io.colour_err:
        return line
    return io.paint(match.group(1), "bold", err=True) + " " + \
        io.paint(match.group(2), "error", err=True) + match.group(3)


def _coloured_diff(io: Io, diff: str) -> str:
    if not io.colour_out:
        return diff
    out = []
    for line in diff.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        ending = line[len(body):]
        style = "bold" if line.startswith(("---", "+++")) else "cyan" if line.startswith(
            "@@") else "red" if line.startswith("-") else "green" if line.startswith(
            "+") else ""
        out.append((io.paint(body, style) if style else body) + ending)
    return "".join(out)
