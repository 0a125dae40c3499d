"""Programs embedded in another file (documentation code blocks): each line of the program
knows where it sits in the host file, so that edits and findings go back there."""

from __future__ import annotations

import bisect
from dataclasses import dataclass

from .common import Change, Finding, Lines, Outcome

__all__ = ["Piece", "lift"]


@dataclass(frozen=True, slots=True)
class Piece:
    """One line of an embedded program: its text (line ending included, possibly made
    neutral) and the host offset of its first character (None: not from the host)."""

    text: str
    origin: int | None


def lift(inner: Outcome, pieces: list[Piece], host: str, host_lines: Lines, *,
         path: str) -> Outcome:
    """``inner`` (a handler's outcome for the program of ``pieces``) in host coordinates."""
    starts = [0]
    for piece in pieces:
        starts.append(starts[-1] + len(piece.text))
    outcome = Outcome(reported=dict(inner.reported))

    def piece_of(offset: int) -> int:
        return min(max(bisect.bisect_right(starts, offset) - 1, 0), len(pieces) - 1)

    def host_offset(offset: int, index: int) -> int | None:
        origin = pieces[index].origin
        return None if origin is None else origin + offset - starts[index]

    def host_position(line: int, column: int) -> tuple[int, int]:
        index = min(line - 1, len(pieces) - 1)
        origin = pieces[index].origin
        if origin is None:
            return line, column
        host_line, host_column = host_lines.position(origin)
        return host_line, host_column + column

    for finding in inner.findings:
        line, column = host_position(finding.line, finding.column)
        end_line, end_column = host_position(finding.end_line or finding.line,
                                             finding.end_column)
        outcome.findings.append(Finding(path, line, column, finding.message, finding.code,
                                        end_line, end_column))
    for start, end, new in inner.edits:
        first_piece = piece_of(start)
        first = host_offset(start, first_piece)
        last = host_offset(end, piece_of(max(end - 1, start)))
        if start == end and first is None and first_piece and starts[first_piece] == start \
                and new.endswith("\n"):
            # whole lines inserted where a text of no origin begins (the line between two
            # blocks): they go after the piece before (an import after a block's last import)
            first_piece -= 1
            first = last = host_offset(start, first_piece)
        if first is None or last is None:
            continue  # inside text that was not the host's: nothing to write back
        origin = pieces[first_piece].origin
        assert origin is not None
        if "\n" in new:  # continuation lines keep the prefix the block's lines carry
            line_start = host_lines.starts[host_lines.position(first)[0] - 1]
            if first == line_start and new.endswith("\n"):
                # whole lines at a line's start, before any prefix (after a blank line of
                # the block, or after its last line): each carries the block's code prefix
                prefix = _code_prefix(pieces, first_piece, host, host_lines)
                new = prefix + new[:-1].replace("\n", "\n" + prefix) + "\n"
            else:
                prefix = host[host_lines.starts[host_lines.position(origin)[0] - 1]:origin]
                new = new.replace("\n", "\n" + prefix)
        outcome.edits.append((first, last, new))
    for change in inner.changes:
        line, column = host_position(change.line, change.column)
        end_line, end_column = host_position(change.end_line or change.line,
                                             change.end_column)
        outcome.changes.append(Change(line, column, change.old, change.new, change.kind,
                                      change.site, change.value, change.target, change.code,
                                      end_line, end_column))
    return outcome


def _code_prefix(pieces: list[Piece], index: int, host: str, host_lines: Lines) -> str:
    """What precedes the code on the host's lines of a block (its indentation, a Markdown
    list's or quote's marks): that of the nearest piece holding code, before ``index`` first."""
    order = [*range(index, -1, -1), *range(index + 1, len(pieces))]
    for at in order:
        piece = pieces[at]
        if piece.origin is not None and piece.text.strip():
            return host[host_lines.starts[host_lines.position(piece.origin)[0] - 1]:piece.origin]
    return ""
