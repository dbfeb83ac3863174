"""Makes a peer's import name resolve to ScoreLens's compat module, for the peers' own test
suites run in a subprocess (see ``test_peer_suites.py``): a generated ``<peer>/__init__.py``
placed first on ``sys.path`` calls :func:`alias`."""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
import sys


def alias(name: str, compat: str, helpers: dict[str, str]) -> None:
    """``import name`` and ``import name.sub`` give ``compat`` and ``compat.sub``; ``helpers``
    (a module name under ``name`` -> a file of the peer's suite, such as rouge-score's
    ``test_util``) are loaded from the suite, as they are part of it, not of the library."""
    package = importlib.import_module(compat)
    for info in pkgutil.walk_packages(package.__path__, compat + "."):
        sys.modules[name + info.name[len(compat) :]] = importlib.import_module(info.name)
    sys.modules[name] = package
    for module, path in helpers.items():
        spec = importlib.util.spec_from_file_location(f"{name}.{module}", path)
        loaded = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = loaded
        spec.loader.exec_module(loaded)
        setattr(package, module, loaded)
