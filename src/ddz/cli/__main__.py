"""``python -m ddz.cli ARGS``: the ``ddz`` command (:func:`ddz.cli.main`)."""

import sys

from . import main

sys.exit(main())
