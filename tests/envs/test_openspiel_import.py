"""``import ddz`` never imports pyspiel (issue 45): the OpenSpiel game is registered by
``import ddz.envs.openspiel`` only. Runs whether or not open_spiel is installed."""

import subprocess
import sys


def test_import_ddz_never_imports_pyspiel():
    import subprocess
    import sys
    code = "import sys, ddz, ddz.envs; assert 'pyspiel' not in sys.modules, 'pyspiel imported'"
    subprocess.run([sys.executable, "-c", code], check=True)
