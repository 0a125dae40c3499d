"""Migration: a target of any TVM release, as the TargetJSON a newer release reads.

    >>> import targetlang
    >>> targetlang.migrate("opencl -device=mali -model=rk3399")["texture_depth_limit"]
    2048

``migrate`` reads the target in its own dialect and writes it in ``target_dialect``.
``source_dialect="auto"`` reads what a migration starts from (:func:`source_target`, the one
rule every entry point uses): legacy text and tag names as TVM 0.21, the newest release
that read legacy text, reads them (a tag whose meaning drifted keeps its 0.21 meaning), and
other releases only for text 0.21 refuses (older ones first for ``-target=`` and the like;
a tag only a newer release registers); dicts and JSON text as the newest release that
reads them. Then:

* every attribute both releases define keeps its value, arrays as lists, hosts and
  composite devices nested; keys the user gave are kept, keys the old release derived by
  itself are derived again by the new one (TVM 0.21 adds ``arm_cpu`` for an Arm triple, as
  its AutoTVM loader did for TopHub's ``-target=`` strings);
* what the newer release defines and the older did not takes the newer release's default
  (opencl ``texture_depth_limit`` in TVM 0.27), as TVM itself would fill it in;
* the options TVM moved out of ``Target`` (``executor``, ``runtime``, ``link-params``,
  ``system-lib``, ``interface-api``, ``unpacked-api``, ...) become executor and runtime
  settings in :func:`migrate_config`; ``migrate`` drops them with a :class:`MigrationWarning`;
* an attribute the old release set by itself (TVM 0.6's per-kind ``thread_warp_size`` of an
  llvm target) and the new release does not define is dropped silently; any other attribute
  without an equivalent is dropped with a warning naming it;
* values TVM detects from the machine stay out unless an ``environment`` is given.

The result is read back in ``target_dialect`` before it is returned, so it is exactly that
dialect's ``to_json()`` of the migrated target, less the ``feature.*`` keys TVM 0.24 and
later export: those the release derives from the LLVM it links, and a migration states only
what the target is.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .._lower.core import is_json_text
from .._lower.dialects import (
    DIALECTS,
    load,
    newest_release,
    release_of,
    releases,
    renamed_attribute,
)
from .._lower.specialize import MOVED_TO_COMPONENT
from .._schema.compilation import facts
from .._stack import caller_level, with_stack_room
from ..configuration.backends import Executor, Runtime
from ..configuration.config import CompilationConfig
from ..environment import Environment
from ..errors import TargetError, json_path, type_name
from ..target import DEFAULT_DIALECT, Target, from_json, parse
from .meaning import MeaningNote, notes_of

__all__ = ["MeaningNote", "MeaningWarning", "MigrationError", "MigrationWarning", "MOVED_OPTIONS",
           "detect_dialect", "meaning_notes", "migrate", "migrate_config"]

#: Target options that TVM (0.9 to 0.19) moved to the executor and the runtime.
MOVED_OPTIONS = tuple(MOVED_TO_COMPONENT)
_EXECUTOR_OPTIONS = tuple(option for option, component in MOVED_TO_COMPONENT.items()
                          if component == "executor" != option)

TargetSource = str | Mapping[str, Any] | Target


class MigrationError(TargetError):
    """A target that has no equivalent in the target dialect (its kind is gone)."""

    __module__ = "targetlang.migration"  # its public path: a traceback names it by it


class MigrationWarning(UserWarning):
    """Something of the source target that the migrated target does not carry."""

    __module__ = "targetlang.migration"  # its public path: a traceback names it by it


class MeaningWarning(MigrationWarning):
    """The migrated target carries all of the source target, and the target release means
    it otherwise than TVM 0.21 did (compiles its kind otherwise), or reads an option under
    another name: a :class:`MeaningNote`, with its code and the line that keeps TVM 0.21's
    meaning. Nothing of the target is lost: tools that refuse a lossy migration (a
    :class:`MigrationWarning`) go on."""

    __module__ = "targetlang.migration"


@dataclass
class _Outcome:
    source: Target
    json: dict[str, Any]
    moved: dict[str, dict[str, Any]] = field(default_factory=dict)  # path -> {option: value}
    lost: list[str] = field(default_factory=list)
    renamed: list[tuple[str, str, str]] = field(default_factory=list)  # (path, old, new)
    text: str | None = None  # the legacy text read (None: a dict or a Target)


#: The release whose reading of a legacy string is its meaning (TVM 0.21, the reference).
LEGACY_DIALECT = DEFAULT_DIALECT
_LEGACY_RELEASE = (0, 21)


# ---- which dialect ---------------------------------------------------------------------------------

@with_stack_room
def detect_dialect(text: str) -> str:
    """The newest TVM release family that accepts ``text`` (``tvm-0.27``, ``tvm-0.21``, ...),
    named as :func:`targetlang.release_families` names it (by its newest release), or the
    older member of that family that reads it where the newest does not.

    Extensions such as ``collage`` are not releases and are never answered. Raises the
    ``tvm-0.21`` reading's :class:`TargetError` when no release accepts the text.
    """
    dialect, _ = _detect(text, None)
    # Releases are tried newest first, so this is the family's name (its newest release)
    # unless that release refuses the text (a tag only an older member registers).
    return dialect


def _detect(source: str | Mapping[str, Any], environment: Environment | None) -> tuple[str, Target]:
    first_error: TargetError | None = None
    for dialect in releases():
        try:
            if isinstance(source, str):
                return dialect, parse(source, dialect=dialect, environment=environment)
            return dialect, from_json(source, dialect=dialect, environment=environment)
        except TargetError as error:
            if dialect == LEGACY_DIALECT or first_error is None:
                first_error = error
    assert first_error is not None
    raise first_error


def source_target(source: str | Mapping[str, Any],
                  environment: Environment | None = None) -> Target:
    """What a migration starts from (``source_dialect="auto"``), read once by one rule.

    Legacy text and tag names mean what TVM 0.21 read (the newest release that read legacy
    text; a tag whose meaning drifted since keeps its 0.21 meaning); text 0.21 refuses is
    read by the other releases, newest first (TopHub's ``-target=`` by ``tvm-0.20`` or older,
    a tag only a newer release registers by that release). Dicts and JSON text are read by
    the newest release that reads them. Raises the ``tvm-0.21`` reading's
    :class:`TargetError` when no release reads the source.
    """
    order = releases()
    if isinstance(source, str) and not is_json_text(source):
        order = [LEGACY_DIALECT, *(d for d in order if d != LEGACY_DIALECT)]
    first_error: TargetError | None = None
    for dialect in order:
        try:
            if isinstance(source, str):
                return parse(source, dialect=dialect, environment=environment)
            return from_json(source, dialect=dialect, environment=environment)
        except TargetError as error:
            if dialect == LEGACY_DIALECT or first_error is None:
                first_error = error
    assert first_error is not None
    raise first_error


def _read(source: TargetSource, source_dialect: str, environment: Environment | None) -> Target:
    if isinstance(source, Target):
        if source_dialect in ("auto", source.dialect):
            return source
        return from_json(source.to_json(), dialect=source_dialect, environment=environment)
    if not isinstance(source, (str, Mapping)):
        raise TypeError(f"migrate() takes target text, a TargetJSON dict or a Target, not "
                        f"{type_name(source)}")
    if source_dialect == "auto":
        return source_target(source, environment)
    if isinstance(source, str):
        return parse(source, dialect=source_dialect, environment=environment)
    return from_json(source, dialect=source_dialect, environment=environment)


# ---- conversion ------------------------------------------------------------------------------------


def _convert(target: Target, dialect: str, path: str, outcome: _Outcome) -> dict[str, Any]:
    schema = load(dialect)
    kind = schema.kinds.get(target.kind)
    if kind is None:
        raise MigrationError(f"target kind {target.kind!r} does not exist in {dialect} "
                             f"(its kinds: {', '.join(schema.kinds)})", path=path or None)
    source_kind = load(target.dialect).kinds[target.kind]
    out: dict[str, Any] = {"kind": target.kind, "tag": target.tag}
    if not _keys_derived(target):
        out["keys"] = list(target.keys)  # the user's keys; derived ones the new release derives
    if target.host is not None:
        out["host"] = _convert(target.host, dialect, json_path(path, "host"), outcome)
    for key, value in target.attrs.items():
        if value is None:
            continue  # -from_device: asked of the device, nothing to carry
        new_key = key if key in kind.attrs else renamed_attribute(target.kind, key, target.dialect,
                                                                  dialect) or key
        spec = kind.attrs.get(new_key)
        old = source_kind.attrs[key]
        at_default = old.has_default and old.default == value
        if spec is not None and key not in ("host", "tag", "keys"):
            if new_key != key:
                outcome.renamed.append((path, key, new_key))
            out[new_key] = _value(value, json_path(path, new_key), dialect, outcome)
        elif key in MOVED_OPTIONS:
            if not at_default:
                outcome.moved.setdefault(path, {})[key] = _value(value, "", dialect, outcome)
        elif not at_default:
            outcome.lost.append(f"{json_path(path, key)}={_show(value)}")
    return out


def _keys_derived(target: Target) -> bool:
    """Whether the target's keys are what its release derives by itself (no ``-keys`` given).

    Such keys follow the rules of the release (TVM 0.21 adds ``arm_cpu`` for an Arm triple,
    TVM 0.6 did not), so the migrated target leaves them to the new release to derive.
    """
    # Keys follow from the target's own kind and attributes, never from its host: leaving
    # the host out keeps this one level's work (with it, a host chain took quadratic time).
    config = (target if target.host is None else target.with_host(None)).to_json()
    del config["keys"]
    try:
        return from_json(config, dialect=target.dialect).keys == target.keys
    except TargetError:
        return False


def _value(value: Any, path: str, dialect: str, outcome: _Outcome) -> Any:
    if isinstance(value, Target):
        return _convert(value, dialect, path, outcome)
    if isinstance(value, tuple):
        return [_value(v, json_path(path, i), dialect, outcome) for i, v in enumerate(value)]
    return value


def _show(value: Any) -> str:
    if isinstance(value, Target):
        return str(value)
    if isinstance(value, Mapping):  # a map option (TVM TIRx's backend_config): as JSON
        import json  # (on first use, as _show_json: only such a value needs it)

        return json.dumps(_plain_json(value), separators=(",", ":"))
    if isinstance(value, tuple):
        return ",".join(_show(v) for v in value)
    if isinstance(value, bool):
        return "1" if value else "0"
    return str(value)


def _migrate(source: TargetSource, source_dialect: str, target_dialect: str,
             environment: Environment | None) -> _Outcome:
    load(target_dialect)  # an unknown dialect is a KeyError before anything is read
    target = _read(source, source_dialect, environment)
    outcome = _Outcome(source=target, json={},
                       text=source if isinstance(source, str) and not is_json_text(source)
                       else None)
    converted = _convert(target, target_dialect, "", outcome)
    result = _read_there(converted, target_dialect, environment)
    if _keep_derived_keys(target, converted, result):
        result = _read_there(converted, target_dialect, environment)
    outcome.json = _without_features(result.to_json())
    return outcome


def _read_there(converted: dict[str, Any], dialect: str,
                environment: Environment | None) -> Target:
    """The converted dict read in the target dialect; a refusal there means the target has no
    equivalent in that release (TVM TIRx refuses the null device 0.21 kept)."""
    try:
        return from_json(converted, dialect=dialect, environment=environment)
    except TargetError as error:
        raise MigrationError(f"{error.message}: no equivalent in {dialect}",
                             path=error.path) from None


def _keep_derived_keys(source: Target, converted: dict[str, Any], result: Target) -> bool:
    """Where the target release derives other keys than the legacy reference (TVM 0.21 or
    newer) derived for a level of the target, that level keeps the source's keys, written
    out: they are its meaning (TVM TIRx gives no ``arm_cpu`` to a triple whose architecture
    its canonicalizer does not know, as ``armm``). Keys an older release derived (TVM 0.6's
    TopHub strings) are left to the new release. Returns whether ``converted`` changed."""
    changed = False
    if ("keys" not in converted and result.keys != source.keys
            and (release_of(source.dialect) or (0,)) >= _LEGACY_RELEASE):
        converted["keys"] = list(source.keys)
        changed = True
    for name in ("host",):
        inner, there = getattr(source, name), getattr(result, name)
        if inner is not None and there is not None and isinstance(converted.get(name), dict):
            changed |= _keep_derived_keys(inner, converted[name], there)
    for key, value in source.attrs.items():
        mine, theirs = converted.get(key), result.attrs.get(key)
        if isinstance(value, Target) and isinstance(mine, dict) and isinstance(theirs, Target):
            changed |= _keep_derived_keys(value, mine, theirs)
        elif isinstance(value, tuple) and isinstance(mine, list) and \
                isinstance(theirs, tuple) and len(value) == len(mine) == len(theirs):
            for old, new_dict, new in zip(value, mine, theirs):
                if isinstance(old, Target) and isinstance(new_dict, dict) and \
                        isinstance(new, Target):
                    changed |= _keep_derived_keys(old, new_dict, new)
    return changed



def _plain_json(value: Any) -> Any:
    """A map option's value (read-only maps, tuples) as plain JSON."""
    if isinstance(value, Mapping):
        return {k: _plain_json(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [_plain_json(v) for v in value]
    return value


def _without_features(value: Any) -> Any:
    """An export without its ``feature.*`` keys, at every level (hosts, devices)."""
    if isinstance(value, dict):
        return {k: _without_features(v) for k, v in value.items()
                if not str(k).startswith("feature.")}
    if isinstance(value, list):
        return [_without_features(v) for v in value]
    return value


def _differences(old: Any, new: Any, path: str) -> list[str]:
    """``path: old -> new`` for each leaf where two JSON values differ."""
    if isinstance(old, dict) and isinstance(new, dict):
        out: list[str] = []
        for key in [*old, *(k for k in new if k not in old)]:
            out += _differences(old.get(key), new.get(key), json_path(path, key))
        return out
    if old == new:
        return []
    return [f"{path or 'target'}: {_show_json(old)} -> {_show_json(new)}"]


def _show_json(value: Any) -> str:
    import json

    return "(none)" if value is None else json.dumps(value)


def meaning_changes(source: str | Mapping[str, Any], target_dialect: str | None = None,
                    environment: Environment | None = None) -> list[str]:
    """How ``source`` read by ``target_dialect`` differs from its legacy (``tvm-0.21``)
    meaning migrated there: empty when it means the same, or when only one of them reads it.

    The test for keeping a text (a tag) as it is: it may stay only where it means the same.
    """
    target_dialect = target_dialect or newest_release()
    try:
        legacy = _migrate(source, LEGACY_DIALECT, target_dialect, environment).json
        there = _read(source, target_dialect, environment).to_json()
    except TargetError:
        return []
    return _differences(legacy, there, "") if legacy != there else []


def _check_dialects(source_dialect: str, target_dialect: str) -> None:
    for name in (target_dialect,) + (() if source_dialect == "auto" else (source_dialect,)):
        if name not in DIALECTS:
            raise ValueError(f"unknown dialect {name!r}; known: {', '.join(DIALECTS)}")


def _warn(message: str, category: type[MigrationWarning] = MigrationWarning) -> None:
    """A warning at the caller's line (the first frame outside targetlang)."""
    warnings.warn(message, category, stacklevel=caller_level())


def _notes(outcome: _Outcome, target_dialect: str) -> list[MeaningNote]:
    return notes_of(outcome.json, target_dialect, moved=outcome.moved, renamed=outcome.renamed,
                    source_kind=outcome.source.kind, source_dialect=outcome.source.dialect,
                    text=outcome.text)


def _warn_notes(notes: list[MeaningNote]) -> None:
    """Warn with each note, whatever the source (text, a dict, a Target)."""
    for note in notes:
        if note.kept:
            _warn(str(note), MeaningWarning)
        else:  # an option left out of the target
            _warn(f"{note}; targetlang.migrate_config() carries it")


@with_stack_room
def meaning_notes(source: TargetSource, *, source_dialect: str = "auto",
                  target_dialect: str | None = None, environment: Environment | None = None
                  ) -> list[MeaningNote]:
    """What ``migrate(source, ...)`` leaves meaning otherwise in ``target_dialect``: one
    :class:`MeaningNote` (code, option, message, the line that keeps TVM 0.21's meaning)
    for each thing the target uses whose meaning moved out of the target or changed (CUDA
    math since 0.25, ``-system-lib``, ...), only where the target uses it. ``migrate`` warns
    with the same notes; this gives them as values (the upgrade tools report them)."""
    target_dialect = target_dialect or newest_release()
    _check_dialects(source_dialect, target_dialect)
    outcome = _migrate(source, source_dialect, target_dialect, environment)
    return _notes(outcome, target_dialect)


@with_stack_room
def migrate(source: TargetSource, *, source_dialect: str = "auto",
            target_dialect: str | None = None, environment: Environment | None = None
            ) -> dict[str, Any]:
    """The complete TargetJSON of the same target in ``target_dialect``.

    ``source`` is target text (legacy string, tag or JSON text), a TargetJSON dict or a
    :class:`Target`; ``source_dialect="auto"`` reads it as :func:`source_target` says
    (legacy text and tags with TVM 0.21's meaning, dicts and JSON text by the newest release
    that reads them). The default ``target_dialect`` is what TVM 0.24 and later accept
    (``tvm.target.Target(dict)``): None is the newest release the library knows. Options TVM moved to the executor and runtime are left out
    with a :class:`MigrationWarning` (:func:`migrate_config` carries them); so is anything
    else without an equivalent. Raises :class:`TargetError` for a text no release reads and
    :class:`MigrationError` for a kind the target dialect does not have.
    """
    target_dialect = target_dialect or newest_release()
    _check_dialects(source_dialect, target_dialect)
    outcome = _migrate(source, source_dialect, target_dialect, environment)
    notes = _notes(outcome, target_dialect)
    said = {(note.path, note.option.partition("=")[0]) for note in notes}
    for path, options in outcome.moved.items():
        where = f" of {path}" if path else ""
        unsaid = {k: v for k, v in options.items() if (path, f"-{k}") not in said}
        if unsaid:
            written = " ".join(f"-{k}={_show(v)}" for k, v in unsaid.items())
            _warn(f"{written}{where}: not a target option in {target_dialect} (TVM moved it to "
                  "the executor and runtime); targetlang.migrate_config() carries it")
    for item in outcome.lost:
        _warn(f"{item}: no equivalent in {target_dialect}; dropped")
    for path, old, new in outcome.renamed:
        if (path, f"-{old}") not in said:
            _warn(f"{json_path(path, old)} is {new!r} in {target_dialect} (renamed)",
                  MeaningWarning)
    _warn_notes(notes)
    return outcome.json


@with_stack_room
def migrate_config(source: TargetSource, *, source_dialect: str = "auto",
                   target_dialect: str | None = None, environment: Environment | None = None
                   ) -> CompilationConfig:
    """A :class:`CompilationConfig`: the migrated target, and its executor and runtime.

    As the RFC "Migrating IRModules to Attributes" moved them: ``-executor`` (default
    ``graph``) with ``link-params``, ``interface-api``, ``unpacked-api`` (and the byte
    alignments) becomes the executor, ``-runtime`` (``c++`` is ``cpp``, ``c`` is ``crt``;
    default ``cpp``) with ``-system-lib`` the runtime. Options of the host count as the
    target's. Without any of them, executor and runtime are None (TVM's defaults). What the
    chosen executor does not take is named in a :class:`MigrationWarning`.
    """

    target_dialect = target_dialect or newest_release()
    _check_dialects(source_dialect, target_dialect)
    outcome = _migrate(source, source_dialect, target_dialect, environment)
    options: dict[str, Any] = {}
    for path, moved in outcome.moved.items():
        for key, value in moved.items():
            if key in options and options[key] != value:
                _warn(f"-{key}={_show(value)} of {path or 'the target'} disagrees with "
                      f"-{key}={_show(options[key])}; the first is kept")
                continue
            options.setdefault(key, value)
    for item in outcome.lost:
        _warn(f"{item}: no equivalent in {target_dialect}; dropped")
    _warn_notes([note for note in _notes(outcome, target_dialect) if note.kept])
    executor = runtime = None
    executor_options = {k: options[k] for k in _EXECUTOR_OPTIONS if k in options}
    if "executor" in options or executor_options:
        name = str(options.get("executor", "graph"))
        known = facts().executors
        taken = known[name].options if name in known else {}
        carried = {k: v for k, v in executor_options.items() if k in taken}
        for key in executor_options:
            if key not in carried:
                _warn(f"-{key}={_show(executor_options[key])}: the {name} executor has no "
                      f"{key!r} option; dropped")
        executor = Executor(name, carried)
    if "runtime" in options or "system-lib" in options:
        attrs = {"system-lib": bool(options["system-lib"])} if "system-lib" in options else {}
        runtime = Runtime(str(options.get("runtime", "cpp")), attrs)
    target = from_json(outcome.json, dialect=target_dialect, environment=environment)
    return CompilationConfig(targets=[target], executor=executor, runtime=runtime,
                             dialect=target_dialect, environment=environment)
