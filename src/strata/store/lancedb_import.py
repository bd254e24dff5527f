"""Import LanceDB without paying for its REST namespace client until someone uses it.

`import lancedb` imports `lance_namespace`, which imports a few model classes from
`lance_namespace_urllib3_client`; that package's `__init__` eagerly imports its whole
HTTP client (every API module, urllib3, hundreds of pydantic models), which an embedded
store never calls. Measured here: `import lancedb` 0.85 s and 129 MB resident with it,
0.47 s and 115 MB without it, in every process that opens an index (a cold `strata
search`, each indexing worker, the first index run).

`defer_rest_client()` registers the package without running its `__init__`: its
submodules (the model classes LanceDB needs) import as usual, and the first use of a
package-level name runs the real `__init__`, so nothing that needs the client breaks.

`overrides_as_on_312()` is for the import itself, on Python 3.11: LanceDB marks its methods
with the `overrides` package's `@override` and `EnforceOverrides`, which disassemble the
caller of every marked method as its class is made (0.08 s of the 0.45 s import here). On
3.12 and later LanceDB takes `typing.override`, which checks nothing at run time, and an
empty class instead; this gives it the same on 3.11, for its own import only.
"""

from __future__ import annotations

import contextlib
import importlib.util
import logging
import sys
from collections.abc import Iterator
from types import ModuleType
from typing import Any

__all__ = ["REST_CLIENT", "defer_rest_client", "overrides_as_on_312"]

log = logging.getLogger(__name__)

REST_CLIENT = "lance_namespace_urllib3_client"


def defer_rest_client() -> bool:
    """Register the REST client package with its `__init__` deferred (before LanceDB is
    imported; a no-op once it is). True if this call deferred it."""
    if REST_CLIENT in sys.modules:
        return False
    try:
        spec = importlib.util.find_spec(REST_CLIENT)
    except (ImportError, ValueError):
        return False
    if spec is None or spec.loader is None or spec.submodule_search_locations is None:
        return False
    module = importlib.util.module_from_spec(spec)
    module.__dict__["__getattr__"] = _run_init_on_first_use(module)
    sys.modules[REST_CLIENT] = module
    return True


def _run_init_on_first_use(module: ModuleType) -> object:
    def __getattr__(name: str) -> object:  # PEP 562: only names the module lacks get here
        if module.__dict__.pop("__getattr__", None) is None:
            raise AttributeError(name)
        log.debug("%s.%s asked for: running the package's __init__", REST_CLIENT, name)
        spec = module.__spec__
        assert spec is not None and spec.loader is not None
        spec.loader.exec_module(module)
        try:
            return module.__dict__[name]
        except KeyError:
            raise AttributeError(f"module {REST_CLIENT!r} has no attribute {name!r}") from None

    return __getattr__


@contextlib.contextmanager
def overrides_as_on_312() -> Iterator[None]:
    """While LanceDB imports, `overrides` is what LanceDB uses on Python 3.12+ (see the
    module doc); afterwards `import overrides` loads the real package. A no-op on 3.12+
    and once LanceDB or `overrides` is imported."""
    if sys.version_info >= (3, 12) or "overrides" in sys.modules or "lancedb" in sys.modules:
        yield
        return
    shim = ModuleType("overrides")
    shim.__dict__.update(override=_override, EnforceOverrides=type("EnforceOverrides", (), {}))
    sys.modules["overrides"] = shim
    try:
        yield
    finally:
        if sys.modules.get("overrides") is shim:
            del sys.modules["overrides"]


def _override(method: Any) -> Any:
    """`typing.override` of Python 3.12: marks the method, checks nothing."""
    with contextlib.suppress(AttributeError, TypeError):
        method.__override__ = True
    return method
