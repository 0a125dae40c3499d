# The migration tools, grouped by job (issue 23): targets (the names of this package, which
# targetlang.migration always offered), logs, pyscripts, upgrade and compat (each also at its
# old path targetlang.NAME); _sites, _pysites, _pyflow, _metaschedule and _upgrade serve them.
from typing import Any

from .._faces import home_attribute
from . import targets as _home
from .targets import *  # noqa: F403
from .targets import __all__, __doc__  # noqa: F401


def __getattr__(name: str) -> Any:
    return home_attribute(_home, __name__, name)
