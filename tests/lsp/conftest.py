"""The ``client`` fixture lives in lsp_support (a uniquely named module the tests import from)."""

from lsp_support import client  # noqa: F401
