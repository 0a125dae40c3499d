"""Where each value of a Target came from: the record the lowering keeps beside the Target.

The lowering is the only reader of text; while it reads, it notes what the input gave (the
config as given, and for legacy text its options with their offsets), which target-parser
hook ran and what it set, what came from the environment and whether ``-from_device`` asked
the device. It stores references only (no copies beyond one small dict), so ``parse`` pays
next to nothing; the origins are worked out here, on demand, by ``explain``, ``lint``,
``check --strict`` and ``diff``. The trace is not part of a Target's value: two equal
targets may carry different traces.
"""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from typing import Any, Literal, NamedTuple

from .._syntax.ast import Option
from .._syntax.grammar import parse_target_text
from .plan import PLAIN_JSON_RECORD

__all__ = ["Origin", "Trace", "Form"]

#: How a target was given: legacy text, TargetJSON (a dict or JSON text), or a registered tag.
Form = Literal["text", "json", "tag"]

#: Where a value came from.
#: ``written``: the input gave it; ``tag``: the registered tag the input named gave it;
#: ``default``: the kind's registered default; ``environment``: the target parser filled it
#: in from the Environment; ``target parser``: the kind's target-parser hook set it;
#: ``-device``: a key TVM adds for ``-device=``; ``device query``: null after
#: ``-from_device``; ``derived``: the release's reader set it from another value.
Origin = Literal["written", "tag", "default", "environment", "target parser", "-device",
                 "device query", "derived"]


_ABSENT: Any = object()


class Trace(NamedTuple):
    """The reading of one target (a host or device target has its own).

    A named tuple: the lowering makes one per target on the hot path, where a frozen
    dataclass costs several times more.
    """

    form: Form
    #: the config as the input gave it (legacy text: its values typed; JSON: as written);
    #: inside a registered tag, the tag's own config
    given: Mapping[str, Any]
    #: the registered tag whose config this target is (or is nested in), else None
    tag_name: str | None = None
    #: legacy text: the options as written, offsets into the text read ...
    options: tuple[Option, ...] = ()
    #: ... and where each offset of that text sits in the outermost source (``place.at``)
    place: Any = None
    #: TVM's name of the target-parser hook that ran, the config it returned (later
    #: stripped of kind, tag, keys and host) and the keys it returned
    hook: str | None = None
    hook_out: Mapping[str, Any] | None = None
    hook_keys: Any = None
    #: the keys the hook filled in from the Environment
    from_environment: AbstractSet[str] = frozenset()
    #: ``-from_device`` was given: the attributes left unset were asked of the device
    queried: bool = False
    #: the text whose offsets ``at`` gives (a target text inside JSON has its own)
    source: str | None = None
    #: what a ``{"tag": ..., <overrides>}`` config gave over its tag (written, not the tag's)
    overrides: AbstractSet[str] = frozenset()
    #: the outermost text only: TVM's wrapper cut it at a NUL here, and rewrote 'mkldnn' here
    nul: int | None = None
    mkldnn: tuple[int, ...] = ()

    @classmethod
    def of(cls, record: tuple[Any, ...]) -> Trace:
        """The trace of what the lowering recorded. Plain text's reader (``_lower/plan.py``)
        records the text in place of its options: they are split again here, on demand."""
        if record[0] == PLAIN_JSON_RECORD:  # read_plain_config's short record
            _, given, ctx, place, hook, hook_out, filled = record
            hook_keys = None
            if hook_out is not None:  # stripped of the fields, as the general path keeps it
                hook_keys = hook_out.get("keys")
                hook_out = {k: v for k, v in hook_out.items() if k not in ("kind", "tag", "keys")}
            record = ("json", given, ctx.tag, (), place, None if hook is None else hook.name,
                      hook_out, hook_keys, filled, False, ctx.source, frozenset(), None, ())
        options = record[3]
        if type(options) is str:
            record = (*record[:3], parse_target_text(options).options, *record[4:])
        return cls._make(record)

    def at(self, index: int) -> int:
        """The offset in ``source`` of ``index`` in the text read."""
        return index if self.place is None else int(self.place.at(index))

    @property
    def hook_set(self) -> frozenset[str]:
        """The attributes the hook set or changed."""
        if self.hook_out is None:
            return frozenset()
        given = self.given
        return frozenset(k for k, v in self.hook_out.items()
                         if given.get(k, _ABSENT) is not v and given.get(k, _ABSENT) != v)

    @property
    def source_name(self) -> Origin:
        """``tag`` inside a registered tag, else ``written``: what "given" means here."""
        return "tag" if self.tag_name is not None else "written"

    def written_options(self) -> Mapping[str, Option]:
        return {option.key: option for option in self.options}

    def is_given(self, name: str) -> bool:
        """Whether the input itself gave attribute ``name`` (not a reader deriving it)."""
        if self.form == "text":
            return any(option.key == name for option in self.options)
        return name in self.given

    def attr_origin(self, name: str, value: Any, defaults: Mapping[str, Any]) -> Origin:
        """Where the attribute ``name`` (now ``value``) came from."""
        if name in self.from_environment:
            return "environment"
        if name in self.hook_set:
            return "target parser"
        if self.queried and value is None:
            return "device query"  # from_device itself too: the query clears it
        if name in self.overrides:
            return "written"
        if self.is_given(name):
            if self.tag_name is not None and name in defaults and defaults[name] == value:
                # A tag's recorded config is its export, which repeats the kind's defaults.
                return "default"
            return self.source_name
        if name in self.given:
            return "derived"  # set by the release's reader (TVM 0.6: -device=intel_graphics)
        if name in defaults:
            return "default"
        return "derived"

    def given_keys(self) -> tuple[str, ...] | None:
        """The dispatch keys the input wrote (None when it wrote none)."""
        if self.form == "text" and "keys" not in self.written_options():
            return None
        keys = self.given.get("keys")
        if not isinstance(keys, (list, tuple)):
            return None
        return tuple(k for k in keys if isinstance(k, str))

    def key_origins(self, keys: tuple[str, ...], device: object,
                    default_keys: tuple[str, ...]) -> list[tuple[str, Origin]]:
        """Each dispatch key with where it came from, in the target's order.

        TVM builds the list as: the config's keys (as given, then as the hook left them),
        the ``-device`` value, then the kind's default keys; a repeated key keeps its first
        place, so the first of these that holds a key is where it came from.
        """
        given = self.given_keys() or ()
        out: list[tuple[str, Origin]] = []
        for key in keys:
            origin: Origin
            if key in given:
                origin = "written" if "keys" in self.overrides else self.source_name
                if origin == "tag" and key in default_keys:
                    origin = "default"  # a tag's export repeats the kind's default keys
            elif isinstance(self.hook_keys, (list, tuple)) and key in self.hook_keys:
                origin = "target parser"
            elif key == device:
                origin = "-device"
            elif key in default_keys:
                origin = "default"
            else:
                origin = "derived"
            out.append((key, origin))
        return out
