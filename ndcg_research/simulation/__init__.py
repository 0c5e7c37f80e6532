"""The simulation engine the notebooks share: simulated ranking problems whose truth is known by construction
(``model``), their nDCG (``simulate``, ``sweeps``, ``cutoff``, ``crossing``, ``replicates``), its predictions
(``theory``, ``finite_n``, ``scaling``) and typed CSV tables (``tables``)."""
