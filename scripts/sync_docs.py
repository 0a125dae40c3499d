"""Keep the grammar summaries of docs/guide.md equal to the grammars in grammar/.

    python3 scripts/sync_docs.py            # rewrite the summaries in docs/guide.md
    python3 scripts/sync_docs.py --check    # exit 1 if docs/guide.md is stale

A summary is the grammar without its comments and blank lines, between the markers
``<!-- grammar: NAME.lark -->`` and ``<!-- end grammar -->``; tests/test_docs.py checks it
against the installed grammar.
"""

from __future__ import annotations

import argparse
import re
import sys

from shelf import REPO

GUIDE = REPO / "docs" / "guide.md"
BLOCK = re.compile(r"(<!-- grammar: (?P<name>[\w.]+) -->\n)```lark\n.*?```\n(<!-- end grammar -->)",
                   re.S)


def summary(grammar: str) -> str:
    """The rules and terminals of a grammar: every line that is not a comment or blank."""
    lines = [line.rstrip() for line in grammar.splitlines()]
    return "".join(line + "\n" for line in lines if line.strip() and not line.lstrip().startswith("//"))


def synced(guide: str) -> str:
    def replace(match: re.Match[str]) -> str:
        grammar = (REPO / "grammar" / match.group("name")).read_text(encoding="utf-8")
        return f"{match.group(1)}```lark\n{summary(grammar)}```\n{match.group(3)}"

    return BLOCK.sub(replace, guide)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the guide is stale")
    args = parser.parse_args()
    guide = GUIDE.read_text(encoding="utf-8")
    new = synced(guide)
    if args.check:
        print("up to date" if new == guide else f"{GUIDE} is stale: run scripts/sync_docs.py")
        return 0 if new == guide else 1
    GUIDE.write_text(new, encoding="utf-8")
    print(f"wrote {GUIDE.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
