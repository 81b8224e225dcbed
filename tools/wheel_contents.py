"""What a ddz wheel must hold, as a rule over file lists (issue 44).

``problems(sdist_names, wheel_names, openmp=...)`` compares a wheel's file list with the
sdist it was built from: every file of the package in the sdist that a user needs (the
Python modules, the type stubs ``*.pyi``, ``py.typed``, the ``.pxd`` declarations for
``cimport``, the web app's static files: every file under ``src/ddz/`` but the Cython
sources) is in the wheel, each compiled module is there once, the licence and the
third-party notices are in ``.dist-info/licenses/``, the shipped model
(``ddz/neural/models/neural/``: three ``.ckpt`` files and ``MODEL.json``, issue 43) is
whole in the sdist -- all four files or none -- and so in the wheel, the vendored ``libgomp`` is there
exactly when the wheel is the OpenMP one, and nothing else is: no ``.pyx`` (nor the ``.pxi`` files it includes), no generated
``.c``, no object files, no bytecode, no tests. ``.pyx`` files stay out because a wheel's
user cannot rebuild from them (the sdist is the source release) and the stubs document
the compiled API.

``tools/build-wheels`` applies it to every wheel it builds (a problem fails the run);
``tests/test_packaging.py`` checks the rule on the file lists of real wheels that the tool
recorded (``tests/data/wheel_files.json``: ``tools/build-wheels --record-files``).
Standard library only.
"""

from __future__ import annotations

import re
from typing import Iterable, List

#: build leftovers that never belong in a wheel
FORBIDDEN = (".pyx", ".pxi", ".c", ".cpp", ".h", ".o", ".obj", ".a", ".lib", ".pyc", ".html")
#: the files that must be in .dist-info/licenses/ (pyproject.toml's license-files)
LICENSES = ("LICENSE", "THIRD_PARTY_NOTICES.md")
#: the shipped neural model (tools/ship_model.py writes it): all of these or none
MODEL_DIR = "ddz/neural/models/neural/"
MODEL_FILES = ("landlord.ckpt", "landlord_down.ckpt", "landlord_up.ckpt", "MODEL.json")
#: what a compiled module's file ends with, per platform
_EXTENSION = re.compile(r"\.(cpython-3\d+[^/]*\.so|cp3\d+-[^/]*\.pyd|abi3\.so)$")


def package_files(sdist_names: Iterable[str]) -> List[str]:
    """The files of ``src/ddz/`` in an sdist's file names (``ddz-0.1.0/src/ddz/x.py``; no
    directories), as their wheel paths (``ddz/x.py``), Cython sources left out."""
    out = []
    for name in sdist_names:
        m = re.match(r"[^/]+/src/(ddz/.+)$", name)
        if m and not m.group(1).endswith((".pyx", ".pxi", ".c")) and not name.endswith("/"):
            out.append(m.group(1))
    return sorted(out)


def extension_modules(sdist_names: Iterable[str]) -> List[str]:
    """The compiled modules' wheel paths without suffix (``ddz/core/_core``): one per
    ``.pyx`` of the package in the sdist."""
    return sorted(m.group(1) for name in sdist_names
                  if (m := re.match(r"[^/]+/src/(ddz/.+)\.pyx$", name)))


def problems(sdist_names: Iterable[str], wheel_names: Iterable[str], *, openmp: bool) -> List[str]:
    """What is wrong with a wheel's file list (empty when nothing is).

    :param sdist_names: the member names of the sdist the wheel was built from.
    :param wheel_names: the wheel's file names (``zipfile.ZipFile.namelist()``).
    :param openmp: the wheel is the OpenMP one (``libgomp`` vendored in ``ddz.libs/``)
        rather than the serial one.
    :returns: one sentence per problem, naming the files.
    """
    sdist_names = [n for n in sdist_names if not n.endswith("/")]
    wheel = {n for n in wheel_names if not n.endswith("/")}          # directory entries
    out: List[str] = []
    need = package_files(sdist_names)
    if not need:
        return ["the sdist lists no file under src/ddz/"]
    missing = [n for n in need if n not in wheel]
    if missing:
        out.append(f"missing from the wheel: {', '.join(missing)}")
    model = [n[len(MODEL_DIR):] for n in need if n.startswith(MODEL_DIR)]
    if model and sorted(model) != sorted(MODEL_FILES):
        out.append(f"the sdist's shipped model ({MODEL_DIR}) holds {', '.join(sorted(model))}: it must hold "
                   f"exactly {', '.join(MODEL_FILES)}")
    for mod in extension_modules(sdist_names):
        built = [n for n in wheel if n.startswith(mod + ".") and _EXTENSION.search(n)]
        if len(built) != 1:
            out.append(f"{mod}: {len(built)} compiled modules ({', '.join(sorted(built)) or 'none'})")
    info = [n for n in wheel if re.match(r"ddz-[^/]+\.dist-info/", n)]
    for lic in LICENSES:
        if not any(n.endswith(".dist-info/licenses/" + lic) for n in info):
            out.append(f"no .dist-info/licenses/{lic}")
    libs = sorted(n for n in wheel if n.startswith("ddz.libs/"))
    gomp = [n for n in libs if re.match(r"ddz\.libs/libgomp[-.]", n)]
    if openmp and len(gomp) != 1:
        out.append(f"the OpenMP wheel must vendor one libgomp in ddz.libs/, it has {gomp or 'none'}")
    if not openmp and libs:
        out.append(f"the serial wheel vendors libraries: {', '.join(libs)}")
    if len(libs) > len(gomp):
        out.append(f"vendored libraries other than libgomp: {', '.join(n for n in libs if n not in gomp)}")
    left = sorted(n for n in wheel if n.endswith(FORBIDDEN) or "__pycache__/" in n)
    if left:
        out.append(f"build leftovers in the wheel: {', '.join(left)}")
    known = set(need) | set(info) | set(libs)
    extra = sorted(n for n in wheel - known if not _EXTENSION.search(n) and n not in left)
    if extra:
        out.append(f"files the sdist's package does not explain: {', '.join(extra)}")
    return out
