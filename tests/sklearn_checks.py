"""Checks shared by the baseline and MetaLevelRanker tests: the scikit-learn estimator checks our multi-label
estimators are expected to fail (and why), and the errors they must give for bad input.

The generic checks build targets for single-output estimators: a 1-D y (or one column) with values such as 0, 1, 2.
Our estimators take a 0/1 label matrix Y of shape (n, n_labels) and reject other targets with a ValueError, so each
check below stops at its fit call for that reason alone; the properties they test (fit returns self, no parameter
changes, dtypes, sparse input, memory layouts, sample-order and subset invariance, one feature, predict on 1-D X) are
re-tested with a valid label matrix in each test module's ``test_sklearn_properties_with_a_label_matrix``.
"""

Y_IS_NOT_A_LABEL_MATRIX = "the check's generated y is not a 0/1 label matrix of shape (n, n_labels)"

EXPECTED_FAILED_CHECKS = {
    name: Y_IS_NOT_A_LABEL_MATRIX
    for name in [
        "check_fit_score_takes_y",
        "check_estimators_overwrite_params",
        "check_dont_overwrite_parameters",
        "check_estimators_fit_returns_self",
        "check_readonly_memmap_input",
        "check_n_features_in_after_fitting",
        "check_positive_only_tag_during_fit",
        "check_estimators_dtypes",
        "check_dtype_object",
        "check_estimator_sparse_tag",
        "check_estimator_sparse_array",
        "check_estimator_sparse_matrix",
        "check_f_contiguous_array_estimator",
        "check_methods_sample_order_invariance",
        "check_methods_subset_invariance",
        "check_fit2d_1feature",
        "check_dict_unchanged",
        "check_fit2d_predict1d",
    ]
}


def assert_bad_input_gives_clear_errors(est, X, Y, nan_above: float) -> None:
    """The errors every multi-label estimator of the library gives for bad input, each naming the problem.

    ``X`` has 60 rows; ``nan_above`` is a value above which some entries of ``X`` are turned into NaN.
    """
    import numpy as np
    import pytest
    from sklearn.base import clone

    with pytest.raises(ValueError, match="X and Y must have the same number of rows .* 60 rows and Y with 59 rows"):
        clone(est).fit(X, Y[:-1])
    with pytest.raises(ValueError, match="minimum of 2 is required"):
        clone(est).fit(X[:1], Y[:1])
    with pytest.raises(ValueError, match=r"Y must contain only 0 and 1, got 2 at position \(0, 0\)"):
        clone(est).fit(X, np.where(np.arange(Y.size).reshape(Y.shape) == 0, 2, Y))
    with pytest.raises(ValueError, match="Y must be 2-D"):
        clone(est).fit(X, Y[:, 0])
    with pytest.raises(ValueError, match="requires y to be passed"):
        clone(est).fit(X, None)
    with pytest.raises(ValueError, match="NaN"):
        clone(est).fit(np.where(X > nan_above, np.nan, X), Y)
    with pytest.raises(Exception, match="not fitted"):
        clone(est).predict(X)
