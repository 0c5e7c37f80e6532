"""The simulation engine the notebooks share: simulated ranking problems whose truth is known by construction
(``model``), their nDCG (``simulate``, ``sweeps``, ``cutoff``, ``crossing``), seeds and cached parallel chunks
(``replicates``), its predictions (``theory``, ``finite_n``, ``scaling``) and typed CSV tables (``tables``). Imports
numpy, scipy and pandas (joblib and tqdm when a sweep runs)."""
