"""How much memory this process may still take, and the error that says a batch of games
does not fit (:mod:`ddz.envs.vector` refuses such a batch before it allocates it)."""

from __future__ import annotations

import os
from typing import List, Optional

from ..errors import VectorMemoryError

__all__ = ["_available_bytes", "_memory_error"]


def _available_bytes() -> Optional[int]:
    """The memory this process may still take, in bytes: the smallest of the system's
    available memory (``MemAvailable`` on Linux, else the physical memory), the room left
    under a cgroup v2 limit and the address-space limit (``RLIMIT_AS``); ``None`` when
    none of them can be read."""
    found: List[int] = []
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    found.append(int(line.split()[1]) * 1024)
                    break
    except (OSError, ValueError, IndexError):
        pass
    if not found:
        try:
            found.append(os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"))
        except (AttributeError, ValueError, OSError):
            pass
    try:
        with open("/sys/fs/cgroup/memory.max") as f:
            limit = f.read().strip()
        if limit != "max":
            with open("/sys/fs/cgroup/memory.current") as f:
                found.append(int(limit) - int(f.read().strip()))
    except (OSError, ValueError):
        pass
    try:
        import resource   # optional dependency: no such module on Windows
        soft = resource.getrlimit(resource.RLIMIT_AS)[0]
        if soft != resource.RLIM_INFINITY:
            found.append(soft)
    except (ImportError, AttributeError, ValueError, OSError):
        pass
    return min(found) if found else None


def _memory_error(n: int, per_game: int, available: Optional[int], kind: str) -> VectorMemoryError:
    have = "" if available is None else f", and {_size(available)} is available"
    return VectorMemoryError(f"{kind}({n:,}) needs at least {_size(n * per_game)} ({per_game:,} bytes per game, "
                             f"more once the hands are played){have}: choose a smaller num_envs")


def _size(nbytes: int) -> str:
    value, unit = float(nbytes), "bytes"
    for bigger in ("KiB", "MiB", "GiB", "TiB"):
        if value < 1024:
            break
        value, unit = value / 1024, bigger
    return f"{nbytes:,} bytes" if unit == "bytes" else f"{value:,.1f} {unit}"
