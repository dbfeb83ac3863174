"""The ``client`` fixtures live in lsp_support (a uniquely named module the tests import from)."""

from lsp_support import client, plain_client, two_folder_client  # noqa: F401
