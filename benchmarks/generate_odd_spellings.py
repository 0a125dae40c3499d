"""Generate the odd-spellings benchmark corpus (``benchmarks/corpora/odd-spellings.txt``).

    python3 benchmarks/generate_odd_spellings.py            # writes the corpus
    python3 benchmarks/generate_odd_spellings.py --check    # exit 1 if the committed file differs
    python3 benchmarks/generate_odd_spellings.py --oracle   # also check each string with TVM 0.21

TVM 0.21's reader allows more than ``-k=v`` and the spellings of ``spellings.txt``: numbers
as ``std::istream`` reads them (``007``, ``+4``, ``0x10``, ``1e3``, ``1_000``, trailing text),
booleans as ``true``, ``False``, ``2`` or ``0.9``, three or more dashes, odd spacing, escapes
(``\\4\\2``), quotes inside array items (``'mps , cutlass'``), quoted hosts holding quoted
values, and all of them mixed. This corpus has each class on its own (``numbers``,
``booleans``, ``dashes``, ``spacing``, ``escapes``, ``array-quotes``, ``quoted-host``) and
``mixed``, 70 strings each, so ``bench.py`` can time each class. Each line is
``CLASS<TAB>TEXT``.

Each string is a plain ``-k=v`` target drawn with a fixed seed from TVM 0.21's schema and the
values real targets use (``generate_spellings.py``'s, of the kinds cuda, nvptx, rocm, opencl,
metal, vulkan, webgpu, llvm and c; a host in some), then respelled in its class by
``targetlang.strategies.respell`` (the same code the property tests and the differential
fuzzer draw these spellings with), reading as the same target. ``--oracle`` runs both through
TVM 0.21 and fails unless TVM reads every respelled string as it reads the plain one.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
OUT = HERE / "corpora" / "odd-spellings.txt"
TVM021 = Path.home() / ".cache" / "targetlang-oracle" / "bin" / "tvm021-python"
SEED = 32
PER_CLASS = 70

sys.path.insert(0, str(REPO))
sys.path.insert(0, str(HERE))
from generate_spellings import NAMED, SKIP, value  # noqa: E402  (benchmarks/)

import targetlang  # noqa: E402

KINDS = ("cuda", "nvptx", "rocm", "opencl", "metal", "vulkan", "webgpu", "llvm", "c")
#: The attribute types each class respells (the others are drawn too, and stay plain).
WANTED = {"numbers": ("int",), "booleans": ("bool", "int"), "escapes": ("str", "int"),
          "array-quotes": ("array<str>",)}


def plain_target(rng: random.Random, kind: str, spelling: str, types: dict[str, str],
                 host: bool) -> str:
    """A ``-k=v`` target of ``kind`` with options the class respells (and a host)."""
    names = [n for n in types if n not in SKIP and n != NAMED.get(kind)]
    wanted = [n for n in names if types[n] in WANTED.get(spelling, ())]
    chosen = rng.sample(wanted, min(rng.randint(1, 3), len(wanted))) if wanted else []
    others = [n for n in names if n not in chosen]
    chosen += rng.sample(others, min(rng.randint(0, 4), len(others)))
    rng.shuffle(chosen)
    if kind in NAMED:  # the device named, as real strings do (else TVM asks the machine)
        chosen.insert(0, NAMED[kind])
    if kind == "llvm":  # an x86 triple: never the Arm parsers
        chosen.insert(0, "mtriple")
    words = [kind]
    for name in chosen:
        text = value(rng, kind, name, types[name])
        if spelling == "booleans" and types[name] == "int":
            text = rng.choice(("0", "1"))  # (TVM reads true and false for integers too)
        words.append(f"-{name}={text}")
    if host:
        host_kind = rng.choice(("llvm", "c"))
        words.append(f"-host='{plain_target(rng, host_kind, spelling, TYPES[host_kind], False)}'")
    return " ".join(words)


def _types() -> dict[str, dict[str, str]]:
    schema = targetlang.kinds("tvm-0.21")
    return {k: {a: str(spec.type) for a, spec in schema[k].attrs.items()}
            for k in (*KINDS, "llvm", "c")}


TYPES = _types()


def corpus() -> list[tuple[str, str, str]]:
    """(class, respelled text, the plain text it was respelled from)."""
    # (imported here: bench.py reads the corpus with checkouts that predate respell)
    from targetlang.strategies import ODD_SPELLINGS, respell

    rng = random.Random(SEED)
    out = []
    for spelling in ODD_SPELLINGS:
        for i in range(PER_CLASS):
            kind = KINDS[i % len(KINDS)]
            host = spelling == "quoted-host" or rng.random() < 0.3
            plain = plain_target(rng, kind, spelling, TYPES[kind], host)
            out.append((spelling, respell(plain, spelling, rng.choice), plain))
    return out


def read(path: Path = OUT) -> dict[str, list[str]]:
    """The committed corpus by class (for bench.py)."""
    out: dict[str, list[str]] = {}
    for line in path.read_text("utf-8").splitlines():
        spelling, _, text = line.partition("\t")
        out.setdefault(spelling, []).append(text)
    return out


_SAME = r"""
import json, sys, warnings
warnings.simplefilter("ignore")
from tvm.target import Target
def plain(value):
    if isinstance(value, str):
        return str(value)
    if value is None or isinstance(value, (bool, int, float)):
        return value
    if hasattr(value, "items"):
        return {str(k): plain(v) for k, v in value.items()}
    return [plain(v) for v in value]
for odd, base in json.load(sys.stdin):
    try:
        same = plain(Target(odd).export()) == plain(Target(base).export())
        print("" if same else f"{odd!r}: TVM reads it as another target than {base!r}")
    except Exception as e:
        print(f"{odd!r}: {type(e).__name__} {str(e).splitlines()[0][:100]}")
"""


def differences_in_tvm(pairs: list[tuple[str, str]]) -> list[str]:
    done = subprocess.run([str(TVM021), "-c", _SAME], input=json.dumps(pairs),
                          capture_output=True, text=True, check=True)
    return [line for line in done.stdout.splitlines() if line]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if the committed file differs")
    ap.add_argument("--oracle", action="store_true",
                    help="check with TVM 0.21 that each string reads as its plain form")
    args = ap.parse_args(argv)
    lines = corpus()
    text = "".join(f"{spelling}\t{odd}\n" for spelling, odd, _ in lines)
    if args.oracle:
        wrong = differences_in_tvm([(odd, plain) for _, odd, plain in lines])
        if wrong:
            print("\n".join(wrong))
            return 1
        print(f"TVM 0.21 reads all {len(lines)} strings, each as its plain -k=v form")
    if args.check:
        same = OUT.exists() and OUT.read_text("utf-8") == text
        print(f"{OUT.relative_to(REPO)}: " + ("up to date" if same else "differs from the generator"))
        return 0 if same else 1
    from targetlang._files import write_atomically

    write_atomically(OUT, text.encode("utf-8"))
    print(f"wrote {OUT.relative_to(REPO)} ({len(lines)} strings)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
