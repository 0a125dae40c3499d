"""How targets relate: the specialization order, the tuning key and the device type.

The specialization order (``a.specializes(b)``: a is b with more fixed) is defined on
what ``to_json()`` says, so defaults count as fixed values, exactly as TVM exported them:

* dialect: a's dialect is b's or extends it (``collage`` extends ``tvm-0.21``);
* kind: equal;
* tag: b's is ``""`` (no tag) or equal to a's;
* keys: b's keys are a subsequence of a's (a may add dispatch keys, in any position,
  without reordering b's: ``-device=mali`` puts ``mali`` first, ``-keys=`` last);
* attributes: every attribute b has, a has with an equal value (same JSON); a may have more;
* host: b has none, or a has one that specializes b's.

Each clause is a partial order (a flat order for tags, subsequence, subset, the base chain
of dialects), so their conjunction is reflexive, antisymmetric and transitive; two targets
that specialize each other have equal dialects and equal ``to_json()``, so they are equal.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from .dialects import dialect_extends, load

if TYPE_CHECKING:
    from ..target import Target

#: Fields of TargetJSON that are not attributes.
_FIELDS = frozenset({"kind", "tag", "keys", "host"})

#: The options TVM (0.9 to 0.19) moved out of Target, each with the component that took it
#: (``executor`` and ``runtime`` name it; the others became its attributes). The one table of
#: them: migration moves them (``targetlang.migration.MOVED_OPTIONS``), a tuning key leaves
#: them out (they never change a tuned schedule; TVM 0.8's targets still carried them).
MOVED_TO_COMPONENT: Mapping[str, str] = MappingProxyType({
    "executor": "executor", "runtime": "runtime", "link-params": "executor",
    "system-lib": "runtime", "interface-api": "executor", "unpacked-api": "executor",
    "workspace-byte-alignment": "executor", "constant-byte-alignment": "executor",
})

#: What a tuning key leaves out: the host (tuned separately), the tag (a name), from_device
#: (how values were found, not what they are) and the moved options but the byte alignments
#: (``workspace-byte-alignment`` is an attribute of kind ``c`` in every release: it stays in
#: the key as any attribute does).
NOT_TUNING = frozenset({"host", "tag", "from_device", *MOVED_TO_COMPONENT}) - {
    "workspace-byte-alignment", "constant-byte-alignment"}


def _same(a: Any, b: Any) -> bool:
    # JSON text tells true from 1 (Python's == does not).
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def _is_subsequence(short: Sequence[str], long: Sequence[str]) -> bool:
    rest = iter(long)
    return all(any(item == other for other in rest) for item in short)


def _json_specializes(a: dict[str, Any], b: dict[str, Any]) -> bool:
    if a["kind"] != b["kind"]:
        return False
    if b["tag"] and a["tag"] != b["tag"]:
        return False
    if not _is_subsequence(b["keys"], a["keys"]):
        return False
    b_host = b.get("host")
    if b_host is not None:
        a_host = a.get("host")
        if a_host is None or not _json_specializes(a_host, b_host):
            return False
    return all(key in _FIELDS or (key in a and _same(a[key], value)) for key, value in b.items())


def specializes(a: Target, b: Target) -> bool:
    """Whether ``a`` is ``b`` with more fixed (see the module docstring for the rule)."""
    if a is b:
        return True
    return dialect_extends(a.dialect, b.dialect) and _json_specializes(a.to_json(), b.to_json())


def device_type(target: Target) -> int:
    """The DLPack device type TVM compiles the target for (``GetTargetDeviceType``)."""
    explicit = target.attrs.get("target_device_type")
    if isinstance(explicit, int) and not isinstance(explicit, bool):
        return explicit
    return load(target.dialect).kinds[target.kind].device_type
