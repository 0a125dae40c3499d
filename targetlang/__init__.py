"""targetlang: the exact, typed grammar of compiler target strings.

    >>> import targetlang
    >>> t = targetlang.parse("cuda -arch=sm_80 -libs=cudnn,cublas")
    >>> t.attrs["arch"], t.keys
    ('sm_80', ('cuda', 'gpu'))

See ``../shared/API.md`` (the public contract) and README.md.
"""

from __future__ import annotations

from .environment import Environment
from .errors import (
    AttributeTypeError,
    DuplicateAttributeError,
    TargetError,
    TargetSyntaxError,
    TargetValueError,
    UnknownAttributeError,
    UnknownKindError,
)
from .target import Target, TargetFeatures, dialects, from_json, kinds, parse, tags

__version__ = "0.1.0"

__all__ = [
    "AttributeTypeError",
    "DuplicateAttributeError",
    "Environment",
    "Target",
    "TargetError",
    "TargetFeatures",
    "TargetSyntaxError",
    "TargetValueError",
    "UnknownAttributeError",
    "UnknownKindError",
    "__version__",
    "dialects",
    "from_json",
    "kinds",
    "parse",
    "tags",
]


def __dir__() -> list[str]:
    return __all__
