"""The ``LABELRANK_PROFILE`` switch: ``full`` (the papers' protocol, used to build the book) or ``quick``
(the same code paths on smaller grids and subsamples, used by the notebook tests)."""

from __future__ import annotations

import os

PROFILES = ("quick", "full")


def get_profile() -> str:
    """Return the active profile, ``"full"`` unless ``LABELRANK_PROFILE`` says otherwise."""
    value = os.environ.get("LABELRANK_PROFILE", "full").strip().lower() or "full"
    if value not in PROFILES:
        raise ValueError(f"LABELRANK_PROFILE must be one of {PROFILES}, got {value!r}")
    return value


def is_quick() -> bool:
    """True under the quick profile."""
    return get_profile() == "quick"


def pick(quick, full):
    """Return ``quick`` under the quick profile and ``full`` otherwise (for grids, subsample sizes, seeds)."""
    return quick if is_quick() else full


def resolve(profile: str | None = None) -> str:
    """``profile`` checked against :data:`PROFILES`, or the active profile (:func:`get_profile`) when None."""
    if profile is None:
        return get_profile()
    if profile not in PROFILES:
        raise ValueError(f"profile must be one of {PROFILES}, got {profile!r}")
    return profile
