"""The grammars of targetlang, installed as the package ``targetlang.grammar``.

The files live in the repository's top-level ``grammar/`` folder; ``pyproject.toml`` maps
that folder onto this package so that wheels and editable installs both carry them.
"""
