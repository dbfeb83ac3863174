"""The ``installed`` fixture lives in editors_support (a uniquely named module the tests import from)."""

from editors_support import installed  # noqa: F401
