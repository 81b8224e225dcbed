# cython: language_level=3
"""The Cython core (placeholder: the kernels are built in the core issue)."""

def core_version():
    """Version tag of the compiled core."""
    return 0
