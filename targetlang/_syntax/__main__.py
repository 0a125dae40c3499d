"""``python3 -m targetlang._syntax``: regenerate ``_terminals.py`` from ``grammar/target.lark``
(after the grammar's word terminals change; tests/unit/syntax/test_tokens.py says when)."""

from pathlib import Path

from .._files import write_atomically
from .grammar import terminals_module

write_atomically(Path(__file__).with_name("_terminals.py"), terminals_module().encode("utf-8"))
