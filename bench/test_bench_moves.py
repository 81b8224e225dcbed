"""pytest-benchmark: legal moves on the fixed positions, one benchmark per engine and
group (``pytest bench/ --benchmark-only``; engines not installed are skipped)."""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import engines  # noqa: E402
import positions  # noqa: E402
from compare import batch_fn  # noqa: E402


@pytest.mark.parametrize("group", positions.GROUPS)
@pytest.mark.parametrize("engine", ["ddz batch kernel"] + list(engines.ENGINES))
def test_legal_moves(benchmark, engine, group):
    ps = positions.by_group(group)
    if engine == "ddz batch kernel":
        fn = batch_fn(ps)
        benchmark(fn)
        return
    try:
        fns = [engines.prepare(engine, p) for p in ps]
    except ImportError as exc:
        pytest.skip(f"{engine} not installed: {exc}")
    fns = [f for f in fns if f is not None]
    if not fns:
        pytest.skip(f"{engine} does not take {group} positions here")

    def run():
        for f in fns:
            f()
    if engine == "reference":
        benchmark.pedantic(run, rounds=3, iterations=1)
    else:
        benchmark(run)
