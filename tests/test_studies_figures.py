"""Figures of the studies do not depend on the last bits of a floating-point sum.

BLAS and SIMD code sum in a machine-dependent order, so the same notebook gives values that
differ in the last bits on another computer. The plot helpers round what they draw
(``round_significant``) and the paired statistics treat rounding-size gaps as ties, so the image
files come out byte-identical; these tests perturb the data in the last bits and compare the
PNG and PDF bytes.
"""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest

from ndcg_research.pipeline.figures import use_style
from ndcg_research.pipeline.style import round_significant
from ndcg_research.simulation import finite_n
from ndcg_research.simulation.sweeps import Sweep, SweepResult, run_sweep
from ndcg_research.studies.convergence.plots import convergence_grid
from ndcg_research.studies.distinguishability.plots import pair_grid


def _files(fig) -> tuple[bytes, bytes]:
    """The figure as PNG and as PDF (whose coordinates are written with 10 decimals: the sensitive one)."""
    png, pdf = io.BytesIO(), io.BytesIO()
    fig.savefig(png, format="png", dpi=60, metadata={"Software": None})
    fig.savefig(pdf, format="pdf", metadata={"CreationDate": None, "ModDate": None, "Creator": None, "Producer": None})
    return png.getvalue(), pdf.getvalue()


def _nudged(values: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The values moved by up to about 100 units in the last place (relative 2e-14), at random: the size of
    the differences between two summation orders of a long sum, i.e. what another machine may compute."""
    return values * (1 + rng.uniform(-2e-14, 2e-14, size=values.shape))


@pytest.fixture(scope="module")
def sweep_and_result():
    use_style()
    s = Sweep.build("probit(lo=0.1, hi=0.6)", ns=[30, 300], replicates=12, seed=5,
                    rankers=["bayes", "noisy(sigma=1)", "random"], discounts=["zipf", "log2", "none"],
                    pairs=[("bayes", "noisy(sigma=1)"), ("noisy(sigma=1)", "random")])
    return s, run_sweep(s)


def test_rounded_plot_values_ignore_the_last_bits():
    rng = np.random.default_rng(0)
    values = rng.random(1000)
    np.testing.assert_array_equal(round_significant(values), round_significant(_nudged(values, rng)))


def test_tables_and_figures_are_the_same_when_the_values_move_in_the_last_bits(sweep_and_result):
    s, result = sweep_and_result
    rng = np.random.default_rng(1)
    other = SweepResult(s, {n: _nudged(v, rng) for n, v in result.values.items()})
    assert any(not np.array_equal(other.values[n], result.values[n]) for n in s.ns)
    th = finite_n.theory_table(s.model, s.rankers, s.discounts, s.ns)
    pairs_a, pairs_b = result.pair_table(), other.pair_table()
    # Under `none` every nDCG is 1 up to rounding: the gaps are ties, the standardized gap undefined, in both.
    none = pairs_b[pairs_b["discount"] == "none"]
    assert (none["p_tie"] == 1).all() and none["std_gap"].isna().all()
    pd.testing.assert_frame_equal(pairs_a[["p_better", "p_tie", "p_worse"]], pairs_b[["p_better", "p_tie", "p_worse"]])
    for draw in (
        lambda r, p: convergence_grid(r, th, s.discounts, s.rankers, "m"),
        lambda r, p: pair_grid(p, s.discounts, s.pairs, "std_gap", "gap"),
        lambda r, p: pair_grid(p, s.discounts, s.pairs, "p_better", "p"),
    ):
        assert _files(draw(result.ranker_table(), pairs_a)) == _files(draw(other.ranker_table(), pairs_b))
