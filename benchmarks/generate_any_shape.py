"""Generate the any-shape benchmark corpus (``benchmarks/corpora/any-shape.jsonl``).

    python3 benchmarks/generate_any_shape.py    # writes the corpus

The plain corpora and the spellings corpus hold one shape each (options of one target);
targets come in every shape the language has: hosts nested in quotes (escaped quotes inside),
JSON text, registered tags, spaces around words, every spelling of an option. This corpus
is drawn from the public strategy that makes them, ``targetlang.strategies.target_strings()``
(TVM 0.21's dialect), by Hypothesis with ``derandomize=True``: the same Hypothesis release
draws the same strings; the committed file is the corpus, one JSON string per line.
Every string is one TVM 0.21 reads: the strategy writes only targets that read back as
themselves, and ``bench.py`` times TVM on exactly these lines.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "corpora" / "any-shape.jsonl"
COUNT = 400  # draws; repeats are dropped


def generate() -> list[str]:
    from hypothesis import HealthCheck, Phase, given, settings

    from targetlang.strategies import target_strings

    drawn: list[str] = []

    @settings(derandomize=True, max_examples=COUNT, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck), deadline=None)
    @given(target_strings())
    def collect(text: str) -> None:
        drawn.append(text)

    collect()
    return list(dict.fromkeys(drawn))


def read() -> list[str]:
    """The committed corpus."""
    return [json.loads(line) for line in OUT.read_text("utf-8").splitlines() if line]


def main() -> int:
    texts = generate()
    OUT.write_text("".join(json.dumps(text) + "\n" for text in texts), "utf-8")
    print(f"{OUT}: {len(texts)} strings")
    return 0


if __name__ == "__main__":
    sys.exit(main())
