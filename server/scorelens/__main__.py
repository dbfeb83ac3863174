"""``python -m scorelens``: the same command line as the ``scorelens`` script."""

from .cli import run

run()
