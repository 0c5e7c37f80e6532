"""Do two independent runs of the same experiment agree? z statistics, cell by cell (``|z| > 3``: beyond chance).

A standard error of 0 (both runs measured the same 0 or 1, or constant replicates) gives z = 0 for equal values and
``inf`` with the sign of the difference otherwise. A pandas Series in gives a Series out, with its index.
"""

from typing import Any

import numpy as np

from .._validation import check_array


def _z(difference: Any, se: Any) -> Any:
    d, s = np.asarray(difference, dtype=float), np.asarray(se, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        # se = 0: equal values agree (z = 0); different ones are infinitely far apart.
        z = np.where(s > 0, d / s, np.where(d == 0, 0.0, np.sign(d) * np.inf))
    if hasattr(difference, "to_numpy"):  # a pandas Series: keep its index
        return type(difference)(z, index=difference.index)
    return float(z) if z.ndim == 0 else z


def _numbers(value: Any, name: str, **bounds: Any) -> Any:
    """Element-wise numbers, finite and within ``bounds`` (a pandas Series is checked and kept, with its index)."""
    return check_array(value, name, keep_labels=True, **bounds)


def proportion_z(p1: Any, n1: Any, p2: Any, n2: Any) -> Any:
    """Two-proportion z statistic with the pooled standard error, element-wise.

    Parameters
    ----------
    p1, p2 : float or array_like
        Proportions in [0, 1].
    n1, n2 : int or array_like
        Their numbers of trials (> 0).

    Returns
    -------
    float, ndarray or pandas.Series
        ``(p1 - p2) / se``; 0 where both are the same 0 or 1 (see the module's policy).

    Examples
    --------
    >>> round(float(proportion_z(0.9, 100, 0.8, 100)), 4)   # pooled 0.85: 0.1 / sqrt(0.85 * 0.15 * 0.02)
    1.9803
    >>> float(proportion_z(1.0, 20, 1.0, 50))
    0.0
    """
    p1, n1 = _numbers(p1, "p1", low=0, high=1), _numbers(n1, "n1", low=0, closed="neither")
    p2, n2 = _numbers(p2, "p2", low=0, high=1), _numbers(n2, "n2", low=0, closed="neither")
    pooled = (p1 * n1 + p2 * n2) / (n1 + n2)
    se = np.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    return _z(p1 - p2, se)


def mean_z(mean1: Any, sd1: Any, n1: Any, mean2: Any, sd2: Any, n2: Any) -> Any:
    """z statistic of two independent means (Welch's), element-wise.

    Parameters
    ----------
    mean1, mean2 : float or array_like
        The means.
    sd1, sd2 : float or array_like
        Standard deviations of the replicates (>= 0).
    n1, n2 : int or array_like
        Numbers of replicates (> 0).

    Returns
    -------
    float, ndarray or pandas.Series
        ``(mean1 - mean2) / sqrt(sd1**2 / n1 + sd2**2 / n2)``; 0 where both standard deviations are 0 and the means
        equal (see the module's policy).

    Examples
    --------
    >>> round(float(mean_z(0.5, 0.3, 100, 0.45, 0.4, 400)), 6)   # 0.05 / sqrt(0.0009 + 0.0004)
    1.38675
    """
    mean1, sd1, n1 = _numbers(mean1, "mean1"), _numbers(sd1, "sd1", low=0), _numbers(n1, "n1", low=0, closed="neither")
    mean2, sd2, n2 = _numbers(mean2, "mean2"), _numbers(sd2, "sd2", low=0), _numbers(n2, "n2", low=0, closed="neither")
    se = np.sqrt(sd1**2 / n1 + sd2**2 / n2)
    return _z(mean1 - mean2, se)
