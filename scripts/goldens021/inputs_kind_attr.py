"""Every attribute of every kind, with values of its type and of the wrong types."""

from __future__ import annotations

from typing import List

from .common import SYNTAXES, Schema, attr_text, kinds_of, options_of

INT_VALUES = ["1", "0", "-7", "3x", "0x10", "+5", "' 4'", "true", "FALSE", "abc",
              "99999999999999999999", "9223372036854775807", "-9223372036854775808"]
BOOL_EXTRA = ["2", "-1", "TrUe", "yes"]
STRING_VALUES = ["x", "'a b'", "a\\ b", "' padded '", "''", "it\\'s", '"dq"', "a,b", "a=b",
                 "a\tb", "x\\"]
ARRAY_VALUES = ["a", "a,b", "'a,b',c", "a\\,b", ",", ",a,,b,", "' a , b'", "''"]
TARGET_VALUES = ["llvm", "'llvm -mcpu=cortex-a53'", "nvidia/jetson-nano", "bogus",
                 "'cuda -arch=sm_80'", "'llvm -host=c'", "'{\"kind\": \"c\"}'", "''"]
DEVICES_VALUES = ["cuda", "cuda,llvm", "'cuda -arch=sm_80',llvm",
                  "'llvm -mcpu=cortex-a53','c'", "cuda,,llvm", "nvidia/jetson-nano,c",
                  "a", ",", "''", "'a,b',c"]


def values_for(kind: str, attr: str, type_key: str) -> List[str]:
    if kind == "composite" and attr == "devices":
        return DEVICES_VALUES
    if type_key == "int":
        return INT_VALUES
    if type_key == "bool":
        return INT_VALUES + BOOL_EXTRA
    if type_key == "ffi.String":
        return STRING_VALUES
    if type_key == "ffi.Array":
        return ARRAY_VALUES
    if type_key == "target.Target":
        return TARGET_VALUES
    raise SystemExit(f"no test values for type {type_key!r} ({kind} -{attr})")


def cases_kind_attr(schema: Schema) -> List[str]:
    out = []
    for kind in kinds_of(schema):
        for a_index, (attr, type_key) in enumerate(options_of(schema, kind).items()):
            for v_index, value in enumerate(values_for(kind, attr, type_key)):
                # the first value (a valid one) always in `-k=v`; then rotate syntaxes
                syntax = "eq" if v_index == 0 else SYNTAXES[(v_index + a_index) % 3]
                out.append(f"{kind} {attr_text(attr, value, syntax)}")
            out.append(f"{kind} {attr_text(attr, None, 'bare')}")
    return out
