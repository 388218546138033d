"""Yang & Gopal (2012), multilabel classification with meta-level features and learning to rank: the timings of
Table 2 (:mod:`.timing`) and the Vowel experiment of Table 7 (:mod:`.vowel`). Tables 3-6 and Fig. 2 come from the
experiment engine, :mod:`labelrank.experiments`."""
