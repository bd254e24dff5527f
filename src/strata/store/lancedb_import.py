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
"""

from __future__ import annotations

import importlib.util
import logging
import sys
from types import ModuleType

__all__ = ["REST_CLIENT", "defer_rest_client"]

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
