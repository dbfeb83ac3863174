"""How a command ends: its exit status, and the one-line error for bad input or usage."""

EXIT_OK = 0
EXIT_THRESHOLD = 1
EXIT_ERROR = 2


class CliError(Exception):
    """Bad input or usage, reported as one line on stderr with exit status 2."""


class NoReference(CliError):
    """No reference named, and none found: ``check`` may still run its QA against a source."""
