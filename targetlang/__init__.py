"""targetlang: the exact, typed grammar of compiler target strings.

    >>> import targetlang
    >>> t = targetlang.parse("cuda -arch=sm_80 -libs=cudnn,cublas")
    >>> t.attrs["arch"], t.keys
    ('sm_80', ('cuda', 'gpu'))

docs/ has the guides (the command line with its output), the topics and the API reference
(docs/api.md, built from these docstrings); docs/guide.md tells the whole story.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .environment import Environment
from .errors import (
    AttributeTypeError,
    ConfigError,
    DuplicateAttributeError,
    TargetError,
    TargetSyntaxError,
    TargetValueError,
    UnknownAttributeError,
    UnknownKindError,
)
from .target import (
    Target,
    TargetFeatures,
    dialects,
    from_json,
    kinds,
    parse,
    release_families,
    tags,
)

if TYPE_CHECKING:
    from . import tvmc
    from ._inspect.lint import LintWarning, lint
    from .configuration.architecture import Architecture
    from .configuration.backends import Executor, Runtime
    from .configuration.components import Component, component
    from .configuration.config import CompilationConfig
    from .configuration.views import DeviceOnlyView, DeviceWithHostView, PackagedView, ViewError
    from .migration import (
        MeaningWarning,
        MigrationError,
        MigrationWarning,
        detect_dialect,
        meaning_notes,
        migrate,
        migrate_config,
    )
    from .tvmc import TvmcTarget, parse_tvmc

# The configuration layer, the linter and tvmc's syntax load on first use, so that
# `import targetlang` stays as cheap as reading targets needs (PEP 562).
_LAZY = {
    "CompilationConfig": "configuration.config", "Executor": "configuration.backends",
    "Runtime": "configuration.backends", "DeviceOnlyView": "configuration.views",
    "DeviceWithHostView": "configuration.views", "PackagedView": "configuration.views",
    "ViewError": "configuration.views", "Architecture": "configuration.architecture",
    "Component": "configuration.components", "component": "configuration.components",
    "lint": "_inspect.lint", "LintWarning": "_inspect.lint",
    "parse_tvmc": "tvmc", "TvmcTarget": "tvmc", "tvmc": "tvmc",
    "detect_dialect": "migration", "migrate": "migration", "migrate_config": "migration",
    "MigrationError": "migration", "MigrationWarning": "migration",
    "MeaningWarning": "migration", "meaning_notes": "migration",
}

__version__ = "0.1.0"

__all__ = [
    "Architecture",
    "AttributeTypeError",
    "CompilationConfig",
    "Component",
    "ConfigError",
    "DeviceOnlyView",
    "DeviceWithHostView",
    "DuplicateAttributeError",
    "Environment",
    "Executor",
    "LintWarning",
    "MeaningWarning",
    "MigrationError",
    "MigrationWarning",
    "PackagedView",
    "Runtime",
    "Target",
    "TargetError",
    "TargetFeatures",
    "TargetSyntaxError",
    "TargetValueError",
    "TvmcTarget",
    "UnknownAttributeError",
    "UnknownKindError",
    "ViewError",
    "__version__",
    "component",
    "detect_dialect",
    "dialects",
    "from_json",
    "kinds",
    "lint",
    "meaning_notes",
    "migrate",
    "migrate_config",
    "parse",
    "parse_tvmc",
    "release_families",
    "tags",
    "tvmc",
]


# The public submodules, each at its one path (``import targetlang.compat``). They are not
# imported here (``targetlang.strategies`` needs Hypothesis, the tools cost start-up time);
# ``__dir__`` lists them so that tab completion offers them, and the first ``targetlang.NAME``
# imports one, as ``import targetlang.NAME`` would.
_SUBMODULES = ("cli", "compat", "configuration", "environment", "errors", "grammar",
               "migration", "strategies", "target", "tvmc")


def __getattr__(name: str) -> Any:
    module_name = _LAZY.get(name, name if name in _SUBMODULES else None)
    if module_name is None:
        raise AttributeError(f"module 'targetlang' has no attribute {name!r}")
    import importlib

    module = importlib.import_module(f"{__name__}.{module_name}")
    value = module if name == module_name else getattr(module, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*__all__, *_SUBMODULES})
