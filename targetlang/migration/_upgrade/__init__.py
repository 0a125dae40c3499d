"""The machinery of ``targetlang upgrade`` (its public module: :mod:`targetlang.migration.upgrade`).

One module per file type, each a function ``handle(text, path, options) -> Outcome`` that
finds the target sites of one decoded file and returns the edits to make and what to report;
``walk`` finds the files; ``common`` holds the shared records and the value step.
"""
