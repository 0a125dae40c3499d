# The public path of targetlang.configuration.backends, where the code lives since the tools were
# grouped by job (issue 23): the same names, __all__ and docstring, so old imports keep working.
from typing import Any

from ._faces import home_attribute
from .configuration import backends as _home
from .configuration.backends import *  # noqa: F403
from .configuration.backends import __all__, __doc__  # noqa: F401


def __getattr__(name: str) -> Any:
    return home_attribute(_home, __name__, name)
