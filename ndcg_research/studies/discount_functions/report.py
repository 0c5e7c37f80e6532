"""Notebook 02 (the discounts side by side): its result tables and their reader versions, from the discounts' values
``D[spec]`` at ranks 1..n_max and their partial sums ``C[spec]`` (``C[spec][r - 1]``: the sum of D(1..r))."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from ...core import parse_discount
from ...pipeline.tables import rounded
from ...simulation import theory


def _n(n: int) -> str:
    """A column name for list length n: "n = 1000", "n = 10^6" (powers of ten from 10^4 on)."""
    exponent = round(math.log10(n))
    return f"n = 10^{exponent}" if n == 10**exponent and exponent >= 4 else f"n = {n}"


def discount_table(D: Mapping[str, np.ndarray], C: Mapping[str, np.ndarray], n_mid: int = 1000) -> pd.DataFrame:
    """The result table ``02_discounts.csv``: D at ranks 1, 10, 1000 and n_max, partial sums at ``n_mid`` and n_max."""
    rows = []
    for d in D:
        values = dict(D_1=D[d][0], D_10=D[d][9], D_1000=D[d][999], D_nmax=D[d][-1])
        sums = dict(sum_1000=C[d][n_mid - 1], sum_nmax=C[d][-1], sum_ratio=C[d][-1] / C[d][n_mid - 1])
        rows.append(dict(discount=d, decay=parse_discount(d).decay, **values, **sums))
    return pd.DataFrame(rows)


def readable_discounts(table: pd.DataFrame, n_max: int) -> pd.DataFrame:
    """:func:`discount_table` with columns in words."""
    top = _n(n_max)[4:]
    names = {"decay": "class", "D_1": "D(1)", "D_10": "D(10)", "D_1000": "D(1000)", "D_nmax": f"D({top})"}
    names |= {"sum_1000": "sum of D to 1000", "sum_nmax": f"sum of D to {top}"}
    names["sum_ratio"] = f"sum to {top} / sum to 1000"
    return rounded(table.set_index("discount").rename(columns=names), 4)


def closed_form_checks(C: Mapping[str, np.ndarray], n_max: int) -> pd.DataFrame:
    """The partial sums against their closed forms (Euler's gamma, zeta(1/2), 2, pi^2 / 6), where there is one."""
    forms = {
        "zipf": ("zipf: H_n - ln n", lambda s: s - math.log(n_max), 0.5772156649),
        "power(beta=0.5)": ("power(0.5): sum - 2 sqrt(n)", lambda s: s - 2 * math.sqrt(n_max), -1.4603545088),
        "geometric(p=0.5)": ("geometric(0.5): sum", lambda s: s, 2.0),
        "power(beta=2)": ("power(2): sum", lambda s: s, math.pi**2 / 6),
    }
    rows = [(name, f(C[d][-1]), value) for d, (name, f, value) in forms.items() if d in C]
    table = pd.DataFrame(rows, columns=["quantity", "measured", "closed form"]).set_index("quantity")
    difference = (table["measured"] - table["closed form"]).abs()
    table["|difference|"] = ["< 1e-3" if d < 1e-3 else f"{d:.1e}" for d in difference]
    return rounded(table, 4)


def top_share_table(C: Mapping[str, np.ndarray], ns: Sequence[int], q: float) -> pd.DataFrame:
    """The result table ``02_top_share.csv``: the share C(qn)/C(n) of the discount mass in the top fraction ``q`` at
    each n (columns ``n=1e+03`` ...), with the limit of its class."""
    rows = []
    for d in C:
        discount = parse_discount(d)
        row = dict(discount=d, decay=discount.decay) | {f"n={n:.0e}": C[d][int(q * n) - 1] / C[d][n - 1] for n in ns}
        limit = {"summable": 1.0, "critical": 1.0}.get(discount.decay, q)
        row["limit"] = q ** (1 - discount.kwargs["beta"]) if discount.decay == "regularly varying" else limit
        rows.append(row)
    return pd.DataFrame(rows)


def readable_top_share(shares: pd.DataFrame, q: float) -> pd.DataFrame:
    """:func:`top_share_table` with columns in words and, at the largest n, how many times its size the top weighs."""
    names = {c: _n(int(float(c[2:]))) for c in shares.columns if c.startswith("n=")}
    out = shares.set_index("discount").rename(columns={"decay": "class", "limit": "limit (theory)", **names})
    last = list(names.values())[-1]
    out[f"top weight / its size at {last}"] = out[last] / q
    return rounded(out, 3)


def eps_table(slow: Sequence[str], ns: Sequence[int]) -> pd.DataFrame:
    """``02_eps.csv``: eps_D(n) at each n and its largest relative difference to the numerical derivative."""
    rows = []
    for d in slow:
        eps = {f"n={n:.0e}": theory.eps(d, float(n)) for n in ns}
        worst = max(abs(theory.eps_numeric(d, float(n)) / theory.eps(d, float(n)) - 1) for n in ns)
        rows.append({"discount": d, **eps, "max rel. diff. numeric": worst})
    return pd.DataFrame(rows)


def readable_eps(eps: pd.DataFrame) -> pd.DataFrame:
    """:func:`eps_table` indexed by discount, with the n columns named as the other tables name them."""
    out = eps.set_index("discount")
    return rounded(out.rename(columns={c: _n(int(float(c[2:]))) for c in out.columns if c.startswith("n=")}))
