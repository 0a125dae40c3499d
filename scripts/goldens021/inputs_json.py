"""JSON text: valid configs of every kind and attribute, wrong value types, odd JSON."""

from __future__ import annotations

from typing import Any, Dict, List

from .common import Schema, kinds_of, options_of
from .inputs_tvm import _j

JSON_VALID_VALUE: Dict[str, Any] = {
    "int": 8, "bool": True, "ffi.String": "x", "ffi.Array": ["a", "b"],
    "target.Target": "llvm",
}
JSON_WRONG_VALUES: Dict[str, List[Any]] = {
    "int": ["5", 5.0, 5.5, True, None, [1], {"a": 1}, 2 ** 63, -(2 ** 63)],
    "bool": [1, 0, 2, "true", None, 1.0],
    "ffi.String": [5, True, None, ["x"], {"a": "b"}, ""],
    "ffi.Array": ["a,b", [1], ["a", 1], [], None, {"a": "b"}, [["a"]], [None]],
    "target.Target": [5, ["llvm"], {"kind": "llvm"}, {"kind": "cuda", "host": "llvm"},
                      {"mcpu": "x"}, "llvm -mcpu=x", None, "", {"kind": "llvm", "5": 1}],
}
COMMON_ATTRS = ("device", "from_device", "host", "keys", "libs", "model", "tag",
                "target_device_type")

JSON_TEXT_INPUTS: List[str] = [
    "{}",
    "{ }",
    "{\"kind\": 5}",
    "{\"kind\": null}",
    "{\"kind\": [\"llvm\"]}",
    "{\"kind\": \"bogus\"}",
    "{\"kind\": \"LLVM\"}",
    "{\"kind\": \"llvm \"}",
    "{\"kind\": \"llvm -mcpu=x\"}",
    "{\"kind\": \"nvidia/jetson-nano\"}",
    "{\"kind\": \"llvm\", \"features\": {}}",
    "{\"kind\": \"llvm\", \"features\": {\"is_aarch64\": true}}",
    "{\"kind\": \"cuda\", \"features\": null}",
    " {\"kind\": \"llvm\"}",
    "\t{\"kind\": \"llvm\"}",
    "{\"kind\": \"llvm\"} ",
    "{\"kind\": \"llvm\"}x",
    "{\"kind\": \"llvm\",}",
    "{kind: llvm}",
    "{'kind': 'llvm'}",
    "{",
    "{\"kind\": \"llvm\"",
    "{\"kind\": \"llvm\"}}",
    "[{\"kind\": \"llvm\"}]",
    "[\"llvm\"]",
    "\"llvm\"",
    "null",
    "5",
    "{\"kind\": \"llvm\", \"tag\": \"mytag\"}",
    "{\"kind\": \"llvm\", \"tag\": 5}",
    "{\"kind\": \"llvm\", \"tag\": null}",
    "{\"kind\": \"cuda\", \"tag\": \"nvidia/jetson-nano\"}",
    "{\"tag\": \"nvidia/jetson-nano\"}",
    "{\"kind\": \"llvm\", \"keys\": \"cpu\"}",
    "{\"kind\": \"llvm\", \"keys\": [1]}",
    "{\"kind\": \"llvm\", \"keys\": []}",
    "{\"kind\": \"llvm\", \"keys\": null}",
    "{\"kind\": \"llvm\", \"keys\": [\"a\", \"a\"], \"device\": \"a\"}",
    "{\"kind\": \"llvm\", \"device\": 5}",
    "{\"kind\": \"llvm\", \"device\": \"\"}",
    "{\"kind\": \"llvm\", \"host\": {\"kind\": \"c\"}}",
    "{\"kind\": \"llvm\", \"host\": {\"kind\": \"llvm\", \"host\": {\"kind\": \"c\"}}}",
    "{\"kind\": \"cuda\", \"host\": \"llvm -mcpu=cortex-a53\"}",
    "{\"kind\": \"cuda\", \"host\": \"{\\\"kind\\\": \\\"llvm\\\"}\"}",
    "{\"kind\": \"cuda\", \"host\": \"cuda -host=llvm\"}",
    "{\"kind\": \"llvm\", \"host\": \" \"}",
    "{\"kind\": \"llvm\", \"host\": \"\"}",
    "{\"kind\": \"llvm\", \"host\": null}",
    "{\"kind\": \"llvm\", \"host\": {}}",
    "{\"kind\": \"composite\", \"devices\": [{\"kind\": \"cuda\"}, \"llvm\"]}",
    "{\"kind\": \"composite\", \"devices\": [\"cuda -arch=sm_80\", "
    "{\"kind\": \"composite\", \"devices\": [\"llvm\"]}]}",
    "{\"kind\": \"composite\", \"host\": \"llvm\", \"devices\": []}",
    "{\"kind\": \"composite\", \"devices\": \"cuda,llvm\"}",
    "{\"kind\": \"composite\", \"devices\": [5]}",
    "{\"kind\": \"composite\", \"devices\": [\"bogus\"]}",
    "{\"kind\": \"llvm\", \"kind\": \"cuda\"}",
    "{\"kind\": \"llvm\", \"mcpu\": \"x\", \"mcpu\": \"y\"}",
    "{\"kind\": \"llvm\", \"opt-level\": NaN}",
    "{\"kind\": \"llvm\", \"opt-level\": Infinity}",
    "{\"kind\": \"llvm\", \"opt-level\": 1e3}",
    "{\"kind\": \"llvm\", \"opt-level\": -0}",
    "{\"kind\": \"llvm\", \"opt-level\": 3, \"fast-math\": 1}",
    "{\"kind\": \"llvm\", \"unknown\": 1}",
    "{\"kind\": \"llvm\", \"from_device\": 0}",
    "{\"kind\": \"cuda\", \"from_device\": 0}",
    "{\"kind\": \"llvm\", \"mattr\": \"+neon\"}",
    "{\"kind\": \"llvm\", \"mtriple\": \"aarch64-linux-gnu\", \"mattr\": [\"+sve\"]}",
    "{\"kind\": \"llvm\", \"libs\": [\"mkldnn\"]}",
    "{\"kind\": \"llvm\", \"libs\": [\"cblas\"], \"x\": \"-libs=mkldnn\"}",
    "{\"kind\": \"llvm\", \"-mcpu\": \"x\"}",
    "{\"kind\": \"llvm\", \"mcpu\": \"a b\"}",
    "{\"kind\": \"llvm\", \"mcpu\": \"\"}",
    "{\"kind\": \"llvm\", \"mcpu\": \" x \"}",
    "{\"kind\": \"llvm\", \"mcpu\": \"'x'\"}",
    "{\"kind\": \"llvm\", \"mcpu\": \"it's\"}",
    "{\"kind\": \"llvm\", \"mcpu\": \"a\\\\b\"}",
    "{\"kind\": \"llvm\", \"mcpu\": \"a\\u0000b\"}",
    "{\"kind\": \"llvm\", \"mcpu\": \"caf\\u00e9\"}",
    "{\"kind\": \"llvm\", \"mattr\": [\"a,b\", \"c d\", \"\", \"'q'\"]}",
    "{\"kind\": \"llvm\", \"model\": \"a,b\", \"device\": \"d e\"}",
    "{\"kind\": \"llvm\", \"mcpu\": \"a\\nb\"}",
    "{\n \"kind\": \"llvm\"\n}",
    "{\"kind\":\"llvm\",\"mcpu\":\"cortex-a53\",\"mtriple\":\"aarch64-linux-gnu\"}",
    "{\"kind\": \"llvm\", \"target\": \"x\"}",
    "{\"target\": \"llvm\"}",
    "{\"target\": {\"kind\": \"llvm\"}}",
    "{\"kind\": \"vulkan\", \"supports_float16\": 1}",
    "{\"kind\": \"vulkan\", \"supports_float16\": \"true\"}",
    "{\"kind\": \"vulkan\", \"supports_float16\": true, \"max_num_threads\": true}",
    "{\"kind\": \"test\"}",
    "{\"kind\": \"c\", \"mcpu\": \"cortex-m55\"}",
    "{\"kind\": \"llvm\", \"mcpu\": \"cortex-m55\", \"mattr\": [\"+nomve\"]}",
]


def json_valid_value(kind: str, attr: str, type_key: str) -> Any:
    if kind == "composite" and attr == "devices":
        return ["cuda", {"kind": "llvm"}]
    if attr == "from_device":
        return 0
    return JSON_VALID_VALUE[type_key]


def cases_json(schema: Schema) -> List[str]:
    out = [_j({"kind": kind}) for kind in kinds_of(schema)]
    for kind in kinds_of(schema):
        opts = options_of(schema, kind)
        # one valid typed value per attribute (the common ones only on a few kinds)
        for attr, type_key in opts.items():
            if attr in COMMON_ATTRS and kind not in ("llvm", "cuda", "composite"):
                continue
            out.append(_j({"kind": kind, attr: json_valid_value(kind, attr, type_key)}))
        # all attributes with valid values at once (from_device: machine query; skipped)
        everything = {"kind": kind}
        everything.update({a: json_valid_value(kind, a, t) for a, t in opts.items()
                           if a != "from_device"})
        out.append(_j(everything))
    # wrong types: the first attribute of each type on a few kinds
    for kind in ("llvm", "cuda", "vulkan", "composite"):
        if kind not in schema["kinds"]:
            continue
        seen_types = set()
        for attr, type_key in options_of(schema, kind).items():
            if type_key in seen_types or attr in ("keys", "tag", "from_device"):
                continue
            seen_types.add(type_key)
            for wrong in JSON_WRONG_VALUES[type_key]:
                out.append(_j({"kind": kind, attr: wrong}))
    return out + JSON_TEXT_INPUTS
