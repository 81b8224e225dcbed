"""Search: a play-phase :class:`Position`, the exact solver (the compiled ``_solver``
beside its pure twin :mod:`ddz.search.reference_solver`), and the bots that search
(:class:`SolverBot`, :class:`ExpertBot`)."""
