"""The notebook tooling: :mod:`~.runner` (``reproduce``, ``store``), :mod:`~.profiles` (which notebooks run with which
parameters), :mod:`~.figures` (files with provenance), :mod:`~.style` and :mod:`~.tables` (what the studies' figures
and tables share), :mod:`~.headlines` (headline figures), :mod:`~.cli` (``reproduce``, ``store``, ``params``)."""
