"""The scikit-learn estimator checks that our multi-label estimators are expected to fail, and why (shared by the
baseline and MetaLevelRanker tests).

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
