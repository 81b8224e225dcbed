"""``python -m ddz ARGS``: the ``ddz`` command (:func:`ddz.cli.main`), as ``python -m
ddz.cli`` is."""

import sys

from .cli import main

sys.exit(main())
