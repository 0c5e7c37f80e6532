"""The notebook tooling: :mod:`~.runner` (``reproduce`` and ``store`` with papermill), :mod:`~.profiles` (which
notebooks run with which parameters), :mod:`~.figures` (figure files with provenance), :mod:`~.style` and
:mod:`~.tables` (what the studies' figures and tables share), :mod:`~.headlines` (each notebook's headline figure)
and :mod:`~.cli` (the ``reproduce``, ``store`` and ``params`` commands).
"""
