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
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from .._syntax.ast import Option
from .._syntax.grammar import parse_target_text

if TYPE_CHECKING:
    from .core import Context, Place
    from .hooks import Hook

__all__ = ["Origin", "Trace", "Form", "traced"]

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
_NONE: frozenset[str] = frozenset()
#: the fields of a config (not attributes), which a reader may leave in the hook's config
_FIELDS = frozenset(("kind", "tag", "keys"))


class Trace(NamedTuple):
    """The reading of one target (a host or device target has its own).

    A named tuple, made only by :func:`traced` (with ``tuple.__new__``: the lowering makes one
    per target on the hot path, where a frozen dataclass or the generated constructor costs
    several times more).
    """

    form: Form
    #: the config as the input gave it (legacy text: its values typed; JSON: as written);
    #: inside a registered tag, the tag's own config
    given: Mapping[str, Any]
    #: the read's context: the registered tag (``tag_name``), the text read (``source``) and
    #: TVM's wrapper notes (``nul``, ``mkldnn``) come from it (None: no reader made it)
    context: Context | None
    #: legacy text: the options as written, offsets into the text read ...
    options: tuple[Option, ...]
    #: ... and where each offset of that text sits in the outermost source (``place.at``)
    place: Place | None
    #: the target-parser hook that ran (``hook``: TVM's name of it), the config it returned
    #: (its attributes: a reader may leave the fields kind, tag and keys in it, which
    #: :meth:`complete` takes out) and the keys it returned. References only: nothing is
    #: copied while reading.
    parser: Hook | None
    hook_out: Mapping[str, Any] | None
    hook_keys: Any
    #: the keys the hook filled in from the Environment
    from_environment: AbstractSet[str]
    #: ``-from_device`` was given: the attributes left unset were asked of the device
    queried: bool
    #: what a ``{"tag": ..., <overrides>}`` config gave over its tag (written, not the tag's)
    overrides: AbstractSet[str]
    #: read lazily: the text whose options are not split yet (``options`` is then empty).
    #: The one-pass reader of plain text (``_lower/plan.py``) leaves it; :meth:`complete`
    #: splits it when a trace is asked for (``Target._trace``). None: nothing left to read.
    unsplit: str | None

    @property
    def tag_name(self) -> str | None:
        """The registered tag whose config this target is (or is nested in), else None."""
        return None if self.context is None else self.context.tag

    @property
    def source(self) -> str | None:
        """The text whose offsets ``at`` gives (a target text inside JSON has its own)."""
        return None if self.context is None else self.context.source

    @property
    def nul(self) -> int | None:
        """The outermost target only: where TVM's wrapper cut the text at a NUL."""
        return None if self.context is None else self.context.nul

    @property
    def mkldnn(self) -> tuple[int, ...]:
        """The outermost target only: where TVM's wrapper rewrote 'mkldnn'."""
        return () if self.context is None else self.context.mkldnn

    @property
    def hook(self) -> str | None:
        """TVM's name of the target-parser hook that ran, if one did."""
        return None if self.parser is None else self.parser.name

    def complete(self) -> Trace:
        """This trace with its lazy fields made: ``options`` split from ``unsplit``, the
        fields taken out of ``hook_out``."""
        trace = self
        if trace.unsplit is not None:
            trace = trace._replace(options=parse_target_text(trace.unsplit).options,
                                   unsplit=None)
        hook_out = trace.hook_out
        if hook_out is not None and not _FIELDS.isdisjoint(hook_out):
            trace = trace._replace(hook_out={k: v for k, v in hook_out.items()
                                             if k not in _FIELDS})
        return trace

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
        return {option.key: option for option in self.complete().options}

    def is_given(self, name: str) -> bool:
        """Whether the input itself gave attribute ``name`` (not a reader deriving it)."""
        if self.form == "text":
            return name in self.written_options()
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


_new_trace = tuple.__new__


def traced(form: Form, given: Mapping[str, Any], ctx: Context, place: Place | None, *,
           options: tuple[Option, ...] = (), unsplit: str | None = None,
           hook: Hook | None = None,
           hook_out: Mapping[str, Any] | None = None, hook_keys: Any = None,
           from_environment: AbstractSet[str] = _NONE, queried: bool = False,
           overrides: AbstractSet[str] = _NONE) -> Trace:
    """The trace of one target, as every reader records it: what the input gave, in context
    ``ctx`` (whose tag, source and wrapper notes it gives), and what the hook did.

    The constructor of ``Trace``: readers name each field they know. (The one-pass reader of
    plain text makes its traces by position, on the hot path: ``plan.settle``.)"""
    return _new_trace(Trace, (form, given, ctx, options, place, hook, hook_out, hook_keys,
                              from_environment, queried, overrides, unsplit))


#: The trace of a target made by no reader (``Target._create`` called directly): a JSON
#: config that gave nothing.
NO_TRACE = Trace(form="json", given={}, context=None, options=(), place=None, parser=None,
                 hook_out=None, hook_keys=None, from_environment=_NONE, queried=False,
                 overrides=_NONE, unsplit=None)
