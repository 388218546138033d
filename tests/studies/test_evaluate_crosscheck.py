"""``labelrank.evaluate`` on the cross-check's random runs (``labelrank.studies.crosscheck``): the same
numbers from TREC-form files as from the project's own."""

from __future__ import annotations

import labelrank
import numpy as np
import pandas as pd
from labelrank.runfiles import read_runs, read_truth
from labelrank.studies.crosscheck import random_run


def test_random_runs_agree_with_the_trec_form_files(tmp_path):
    truth_text, run_text = random_run(np.random.default_rng(3), ties=True, disagree=False)
    (tmp_path / "t").write_text(truth_text)
    (tmp_path / "r").write_text(run_text)
    truth = read_truth(tmp_path / "t")
    run = read_runs(tmp_path / "r", docs=truth, order="score")[str(tmp_path / "r")]
    as_dict = {d: dict(zip(run.ranking[d], run.scores[d])) for d in run.ranking}
    pd.testing.assert_frame_equal(labelrank.evaluate(tmp_path / "t", tmp_path / "r", order="score"),
                                  labelrank.evaluate(truth, as_dict))
