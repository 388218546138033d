"""How the scorecard judges a number of ours against the paper's: its basis (recomputed, reconstructed, simulated,
paper only), the :class:`Tolerance` of its table, the rounding of the paper's printed digits (:func:`half_unit`),
and the verdict of one row (:func:`status`) or of one table's rows (:func:`compare`). The rule itself is stated in
the docstring of :mod:`labelrank.studies.scorecard`, which gathers the tables."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from labelrank.validation import check_choice, describe_value

__all__ = ["BASES", "STATUSES", "AGREEMENTS", "COLUMNS", "SLACK", "Tolerance", "DETERMINISTIC", "COUNTS",
           "SIMULATED", "TUNED", "TIMING", "half_unit", "status", "compare"]

#: What a row's number of ours is: recomputed from the paper's own inputs, reconstructed (computed on an input that
#: was fitted to the paper's numbers, so agreement is built in), simulated (computed on a simulation of data that
#: are not public), or missing (the paper's number only).
BASES: tuple[str, ...] = ("recomputed", "reconstructed", "simulated", "paper only")
#: The statuses, in the order of the summary's columns: a recomputed row matches, is close or differs; a
#: reconstructed or simulated row is never counted as a match, its status is its basis and its verdict by the
#: tolerance is in the ``agreement`` column.
STATUSES: tuple[str, ...] = ("matches", "close", "differs", "reconstructed", "simulated", "paper only")
#: The verdicts by the tolerance alone (the ``agreement`` column; empty for a paper-only row).
AGREEMENTS: tuple[str, ...] = ("matches", "close", "differs")
#: The columns of every table of the scorecard.
COLUMNS: tuple[str, ...] = ("source", "table", "item", "paper", "ours", "abs_delta", "tolerance", "close_tolerance",
                            "status", "reason", "chapter", "paper_table", "paper_over_ours", "basis", "agreement")
#: Floating-point slack of the comparisons, relative to max(1, |paper|).
SLACK: float = 1e-9


@dataclass(frozen=True)
class Tolerance:
    """How a table's rows are judged (see the module docstring).

    Attributes
    ----------
    match : float
        Beyond the rounding of the printed value, |Δ| up to this still "matches" (0: rounding only).
    close : float
        |Δ| up to this is "close".
    relative : bool
        ``match`` and ``close`` are fractions of |paper| rather than absolute.
    comparable : bool
        False for measurements of a machine: every row "differs".
    description : str
        What the quantities are, for the chapter.
    """

    match: float = 0.0
    close: float = 0.0
    relative: bool = False
    comparable: bool = True
    description: str = ""

    def limits(self, paper_value: float, half: float) -> tuple[float, float]:
        """(tolerance, close_tolerance) for a paper's value printed with rounding ``half``; NaN if not comparable."""
        if not self.comparable:
            return math.nan, math.nan
        scale = abs(paper_value) if self.relative else 1.0
        tol = max(half, self.match * scale)
        return tol, max(tol, self.close * scale)


#: Exact arithmetic on fixed inputs.
DETERMINISTIC = Tolerance(match=0.0, close=0.02, description="exact arithmetic on fixed inputs")
#: Data set statistics.
COUNTS = Tolerance(match=0.0, close=0.01, relative=True, description="statistics of the data sets")
#: Recomputed on a simulation of the NTCIR-6 runs.
SIMULATED = Tolerance(match=0.05, close=0.15, description="computed on simulated runs (the real runs are not public)")
#: Test-set values of models tuned by cross-validation.
TUNED = Tolerance(match=0.01, close=0.05, relative=True,
                  description="test-set values of models tuned by cross-validation on random folds")
#: Timings belong to a machine as much as to the code: shown beside the paper's, never judged as a match.
TIMING = Tolerance(comparable=False, description="timings, which belong to a machine as much as to the code")


def half_unit(printed: str) -> float:
    """Half a unit of the last digit of a number as printed: ``"0.64"`` -> 0.005, ``"249"`` -> 0.5.

    Raises
    ------
    ValueError
        If ``printed`` is not a decimal number.
    """
    text = str(printed).strip()
    mantissa, _, exponent = text.lower().partition("e")
    try:
        float(text)
        power = int(exponent) if exponent else 0
    except ValueError:
        raise ValueError(f"printed must be a number as printed, got {describe_value(printed)}") from None
    if not math.isfinite(float(text)):
        raise ValueError(f"printed must be a finite number, got {describe_value(printed)}")
    decimals = len(mantissa.partition(".")[2])
    return 0.5 * 10.0 ** (power - decimals)


def status(paper_value: float, ours: float, tolerance: float, close_tolerance: float) -> str:
    """The status of one row (the rule of the module docstring).

    ``ours`` NaN gives "paper only"; ``tolerance`` NaN (a table that is not comparable) gives "differs".

    Raises
    ------
    ValueError
        If ``paper_value`` is not a finite number, or a tolerance is negative or ``close_tolerance < tolerance``.

    Examples
    --------
    >>> status(0.64, 0.6449, 0.005, 0.02), status(0.64, 0.651, 0.005, 0.02), status(0.64, 0.70, 0.005, 0.02)
    ('matches', 'close', 'differs')
    """
    paper_value, ours = float(paper_value), float(ours)
    tolerance, close_tolerance = float(tolerance), float(close_tolerance)
    if not math.isfinite(paper_value):
        raise ValueError(f"paper_value must be a finite number, got {paper_value!r}")
    if math.isnan(ours):
        return "paper only"
    if math.isnan(tolerance):
        return "differs"
    if tolerance < 0 or not close_tolerance >= tolerance:
        raise ValueError(f"need 0 <= tolerance <= close_tolerance, got tolerance={tolerance!r}, "
                         f"close_tolerance={close_tolerance!r}")
    delta = abs(ours - paper_value)
    slack = SLACK * max(1.0, abs(paper_value))
    if delta <= tolerance + slack:
        return "matches"
    if delta <= close_tolerance + slack:
        return "close"
    return "differs"


def compare(records: Sequence[dict[str, Any]], *, source: str, table: str, tolerance: Tolerance, reason: str,
            chapter: str, paper_table: str, basis: str = "recomputed") -> pd.DataFrame:
    """Judge rows of one table and return them with :data:`COLUMNS`.

    Parameters
    ----------
    records : sequence of dict
        One per paper number: ``item``, ``paper`` (float), ``printed`` (the paper's number as printed: its last
        digit sets the rounding), ``ours`` (float or NaN), and optionally ``reason`` (replaces the table's reason
        on this row), ``why`` (replaces it only where the row does not match: a chapter's explanation of that
        difference), ``chapter`` and ``paper_over_ours``.
    tolerance : Tolerance
    reason, chapter, paper_table : str
        The table's reason, the docname of its chapter, and the ``data/paper`` file of its numbers.
    basis : {"recomputed", "reconstructed", "simulated"}
        What our numbers are (:data:`BASES`). A row of ours that is reconstructed or simulated takes its basis as
        its status, whatever its agreement; a row without a number of ours is "paper only".
    """
    if not isinstance(tolerance, Tolerance):
        raise TypeError(f"tolerance must be a Tolerance, got {describe_value(tolerance)}")
    basis = check_choice(basis, "basis", BASES[:3])
    rows = []
    for rec in records:
        p = float(rec["paper"])
        o = float(rec["ours"]) if rec.get("ours") is not None else math.nan
        tol, close = tolerance.limits(p, half_unit(rec["printed"]))
        agreement = status(p, o, tol, close)
        why = rec.get("reason", reason)
        if agreement != "matches" and rec.get("why"):
            why = rec["why"]
        row_basis = "paper only" if agreement == "paper only" else basis
        st = agreement if row_basis in ("recomputed", "paper only") else row_basis
        rows.append({
            "source": source, "table": table, "item": rec["item"], "paper": p, "ours": o,
            "abs_delta": abs(o - p) if math.isfinite(tol) else math.nan, "tolerance": tol, "close_tolerance": close, "status": st, "reason": why,
            "chapter": rec.get("chapter", chapter), "paper_table": paper_table,
            "paper_over_ours": float(rec.get("paper_over_ours", math.nan)), "basis": row_basis,
            "agreement": "" if agreement == "paper only" else agreement,
        })
    return pd.DataFrame(rows, columns=list(COLUMNS))
