"""One rule for every count of threads or processes (issue 40 items 2 and 5):
ddz.threads_arg, used by the arena, ddz.distributed, selfplay, serve, VectorGame, the batch
kernels and solve."""

import numpy as np
import pytest

import ddz
import ddz.arena
import ddz.envs
from ddz.core.parallel import threads_arg, usable_cpus


def test_zero_is_every_usable_cpu_and_counts_are_capped():
    cpus = usable_cpus()
    assert ddz.usable_cpus() == cpus >= 1
    assert threads_arg(0) == cpus and threads_arg(1) == 1 and threads_arg(np.int64(1)) == 1
    assert threads_arg(10 ** 9) == cpus                          # at most the usable CPUs
    assert threads_arg(10 ** 9, work=1) == 1 == threads_arg(0, work=0)     # and the work (at least 1)
    assert threads_arg(10 ** 9, per_cpu=4) == 4 * cpus
    assert threads_arg(10 ** 9, cap=False, work=7) == 7          # a Ray cluster: the work only
    for bad in (-1, 1.5, True, "2", None, np.float64(2.0)):
        with pytest.raises(ddz.DdzError, match=r"workers must be an int >= 0 \(0: every usable CPU\)"):
            threads_arg(bad, name="workers")


def test_the_same_rule_everywhere():
    cpus = usable_cpus()
    space = ddz.ActionSpace()
    hands = np.zeros((1, 15), np.uint8)
    for call in (lambda t: ddz.solve(ddz.Position(["3", "4"]), threads=t),
                 lambda t: space.legal_masks(hands, np.zeros(1, np.int32), threads=t),
                 lambda t: ddz.envs.VectorGame(3, threads=t)):
        call(0)
        call(10 ** 6)
        with pytest.raises(ddz.DdzError, match="threads must be an int >= 0"):
            call(-1)
    assert ddz.envs.VectorGame(3, threads=10 ** 6).threads == min(3, cpus)


def test_arena_workers_are_at_most_the_deals():
    """``--workers 1000000`` made 284 processes, ``--workers 50 --deals 2`` 50."""
    r = ddz.arena.run(["random", "greedy"], deals=1, seed=1, workers=1_000_000)
    assert r.workers == 1 and r.deals == 1


def test_table_mb_option_takes_mib_from_1_to_max():
    """ddz.table_mb_option, the --table-mb type of solve, analyze and serve: a float from 1
    to MAX_TABLE_MB MiB; anything else an argparse.ArgumentTypeError saying what it got."""
    import argparse
    assert ddz.table_mb_option("64") == 64.0 and ddz.table_mb_option("1") == 1.0
    assert ddz.table_mb_option(str(ddz.MAX_TABLE_MB)) == float(ddz.MAX_TABLE_MB) == 2.0 ** 20
    for bad in ("0", "0.5", "-1", "inf", "nan", "1e400", str(ddz.MAX_TABLE_MB + 1), "x", "", None):
        with pytest.raises(argparse.ArgumentTypeError, match=repr(bad)):
            ddz.table_mb_option(bad)
