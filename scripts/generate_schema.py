"""Generate targetlang's schema data for the ``tvm-0.21`` dialect from the TVM 0.21 oracle.

    python3 scripts/generate_schema.py            # writes targetlang/_data/tvm-0.21.json
    python3 scripts/generate_schema.py --check    # exit 1 if the committed file differs

The oracle is installed by ``../shared/oracle/install.sh``; its interpreter is found at
``$TARGETLANG_ORACLE_DIR/bin/tvm021-python`` (default ``~/.cache/targetlang-oracle``).
This script re-runs itself under that interpreter (``--probe``) to ask TVM directly.

What TVM does not expose is found by probing, never copied by hand:

* attribute types: ``TargetKind.options_from_name`` (``int``, ``bool``, ``ffi.String``,
  ``ffi.Array``, ``target.Target``); the element type of an array is found by giving it
  ``["llvm"]`` and looking at what comes back (a string, or a target dict);
* registered defaults: ``Target({"kind": k, **pinned}).export()`` minus what was given,
  where ``pinned`` sets every attribute that the kind's target parser would otherwise fill
  (so that what remains are ``add_attr_option`` defaults);
* tags: ``tvm.target.tag.list_tags()`` with each tag's ``export()``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _generated import plain as plain_json  # noqa: E402
from _generated import write_or_check  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
OUTPUT = REPO / "targetlang" / "_data" / "tvm-0.21.json"
ORACLE_DIR = Path(os.environ.get("TARGETLANG_ORACLE_DIR", Path.home() / ".cache/targetlang-oracle"))
ORACLE_PYTHON = ORACLE_DIR / "bin" / "tvm021-python"

# Attributes the target parsers of TVM 0.21 fill in when they are missing (target_kind.cc:
# UpdateCUDAAttrs, UpdateNVPTXAttrs, UpdateROCmAttrs; parsers/cpu.cc). Pinning them to the
# value the parser would choose keeps them out of the probed defaults.
PARSER_FILLED = {
    "llvm": {"mcpu": "generic"},
    "cuda": {"arch": "sm_50"},
    "nvptx": {"mcpu": "sm_50", "mtriple": "nvptx64-nvidia-cuda"},
    "rocm": {"mcpu": "gfx900", "mtriple": "amdgcn-amd-amdhsa-hcc"},
}

TYPE_NAMES = {"int": "int", "bool": "bool", "ffi.String": "str", "target.Target": "target"}


def probe() -> dict[str, Any]:
    """Runs inside the oracle interpreter: ask TVM for every fact we store."""
    import tvm  # type: ignore[import-not-found]
    import tvm.target.tag  # type: ignore[import-not-found]
    from tvm.target import Target, TargetKind  # type: ignore[import-not-found]

    def plain(v: Any) -> Any:
        return plain_json(v, Target)

    kinds: dict[str, Any] = {}
    for name in sorted(str(k) for k in Target.list_kinds()):
        options = {str(a): str(t) for a, t in TargetKind.options_from_name(name).items()}
        pinned = PARSER_FILLED.get(name, {})
        target = Target({"kind": name, **pinned})
        exported = plain(target.export())
        attrs: dict[str, Any] = {}
        for attr, type_key in sorted(options.items()):
            if type_key == "ffi.Array":
                sample = plain(Target({"kind": name, **pinned, attr: ["llvm"]}).export())[attr]
                type_name = "array<target>" if isinstance(sample[0], dict) else "array<str>"
            else:
                type_name = TYPE_NAMES[type_key]
            spec: dict[str, Any] = {"type": type_name}
            if attr in exported and attr not in pinned and attr not in ("kind", "tag", "keys"):
                spec["default"] = exported[attr]
            attrs[attr] = spec
        kinds[name] = {
            "device_type": int(target.kind.default_device_type),
            "default_keys": [str(k) for k in target.kind.default_keys],
            "attrs": attrs,
        }
    tags = {str(n): plain(t.export()) for n, t in sorted(tvm.target.tag.list_tags().items())}
    codegen = tvm.target.codegen
    return {
        "dialect": "tvm-0.21",
        "source": "TVM %s (LLVM %s), recorded by scripts/generate_schema.py"
        % (tvm.__version__, int(codegen.llvm_version_major())),
        "tvm_version": str(tvm.__version__),
        "llvm_version": int(codegen.llvm_version_major()),
        "system_triple": str(codegen.llvm_get_system_triple()),
        "kinds": kinds,
        "tags": tags,
    }


def render(schema: dict[str, Any]) -> str:
    return json.dumps(schema, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare with the committed file")
    ap.add_argument("--probe", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.probe:
        out = os.fdopen(os.dup(1), "w")
        os.dup2(2, 1)  # TVM's own prints go to stderr, the protocol to our copy of stdout
        out.write(json.dumps(probe()))
        out.close()
        return 0
    if not ORACLE_PYTHON.exists():
        sys.exit(f"no TVM 0.21 oracle at {ORACLE_PYTHON}; run ../shared/oracle/install.sh")
    done = subprocess.run([str(ORACLE_PYTHON), __file__, "--probe"], check=True,
                          stdout=subprocess.PIPE, text=True)
    text = render(json.loads(done.stdout))
    return write_or_check(OUTPUT, text, check=args.check, source="the oracle")


if __name__ == "__main__":
    sys.exit(main())
