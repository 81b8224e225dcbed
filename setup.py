"""Build the Cython core.

Compiler directives are set once, here. ``DDZ_CYTHON_DEBUG=1`` turns bounds and
wrap-around checks back on (for hunting crashes). A failed compile is an install
error: there is deliberately no fall-back to a pure-Python-only install.
"""
import os
import sys
import tempfile

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


def openmp_flags():
    """Compile/link flags for OpenMP, or ``([], [])`` for a serial build.

    Only GCC/Clang on Linux are tried (macOS's Apple Clang ships no OpenMP runtime and
    MSVC's is optional), and only if a test program compiles and links with
    ``-fopenmp``. ``DDZ_NO_OPENMP=1`` forces a serial build. Used by ``ddz.game._actions``
    (batch kernels) and ``ddz.envs._vector`` (``VectorGame(num_threads=k)``), which run
    serially without it, with the same results.
    """
    if os.environ.get("DDZ_NO_OPENMP") == "1" or not sys.platform.startswith("linux"):
        return [], []
    from setuptools._distutils.ccompiler import new_compiler
    from setuptools._distutils.sysconfig import customize_compiler

    cc = new_compiler()
    customize_compiler(cc)
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "omp_test.c")
        with open(src, "w") as f:
            f.write("#include <omp.h>\nint main(void) { return omp_get_max_threads() > 0 ? 0 : 1; }\n")
        try:
            objs = cc.compile([src], output_dir=tmp, extra_postargs=["-fopenmp"])
            cc.link_executable(objs, os.path.join(tmp, "omp_test"), extra_postargs=["-fopenmp"])
        except Exception:
            return [], []
    return ["-fopenmp"], ["-fopenmp"]


OMP_COMPILE, OMP_LINK = openmp_flags()


def extension(name: str, openmp: bool = False) -> Extension:
    """The extension ``ddz.<package>.<name>`` from ``src/ddz/<package>/<name>.pyx``
    (``name`` is dotted, e.g. ``"core._core"``): numpy's headers, -O3 (except with MSVC),
    and OpenMP when asked for and available."""
    return Extension(
        f"ddz.{name}",
        [f"src/ddz/{name.replace('.', '/')}.pyx"],
        include_dirs=[np.get_include()],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
        extra_compile_args=([] if os.name == "nt" else ["-O3"]) + (OMP_COMPILE if openmp else []),
        extra_link_args=OMP_LINK if openmp else [],
    )


extensions = [extension("core._core"), extension("game._actions", openmp=True), extension("game._game"),
              extension("search._solver"), extension("envs._vector", openmp=True),
              extension("envs._douzero")]

setup(ext_modules=cythonize(extensions, compiler_directives=DIRECTIVES))
