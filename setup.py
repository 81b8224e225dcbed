"""Build the Cython core.

Compiler directives are set once, here. ``DDZ_CYTHON_DEBUG=1`` turns bounds and
wrap-around checks back on (for hunting crashes). A failed compile is an install
error: there is deliberately no fall-back to a pure-Python-only install.
"""
import os

import numpy as np
from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("DDZ_CYTHON_DEBUG") == "1"
DIRECTIVES = {
    "language_level": "3",
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "cdivision": True,
    "embedsignature": True,
}

extensions = [
    Extension(
        "ddz._core",
        ["src/ddz/_core.pyx"],
        include_dirs=[np.get_include()],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
        extra_compile_args=[] if os.name == "nt" else ["-O3"],
    ),
]

setup(ext_modules=cythonize(extensions, compiler_directives=DIRECTIVES))
