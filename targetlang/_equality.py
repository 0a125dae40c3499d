"""One way for the library's values to be equal: by their canonical JSON text.

``Target``'s contract (API.md: equal exactly when TVM would export the same dict) holds for
every value built of targets: a configuration, an architecture, a component, an executor or
runtime, a tvmc target. Each says what it is as JSON (:meth:`EqualAsJson._identity_json`);
``==`` and ``hash`` compare that text, computed once per value."""

from __future__ import annotations

import json
from typing import Any, ClassVar


class EqualAsJson:
    """``==`` and ``hash`` by canonical JSON text, kept in ``_identity`` (None until asked).

    The class that lists this mixin among its bases is the family: a value is equal only to
    values of its family (an ``Executor`` may equal an ``Executor``, never a ``Runtime`` of the
    same JSON: its identity names what it is). Subclasses declare the ``_identity`` slot and
    set it to None when built."""

    __slots__ = ()

    #: Whether members are sorted: False where their order means something (the targets of a
    #: configuration: TVM took the first for a device).
    _SORT_KEYS: ClassVar[bool] = True
    _family: ClassVar[type[EqualAsJson]]
    _identity: str | None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if EqualAsJson in cls.__bases__:
            cls._family = cls

    def _identity_json(self) -> Any:
        """What the value is, as JSON (by default :meth:`to_json`)."""
        return self.to_json()  # type: ignore[attr-defined]

    def _identity_text(self) -> str:
        if self._identity is None:
            text = json.dumps(self._identity_json(), sort_keys=self._SORT_KEYS,
                              separators=(",", ":"))
            self._identity = text  # type: ignore[misc]  # the slot is each subclass's
        return self._identity

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, self._family):
            return NotImplemented
        return self is other or self._identity_text() == other._identity_text()

    def __hash__(self) -> int:
        return hash(self._identity_text())
