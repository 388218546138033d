"""Yang & Gopal (2012), multilabel classification with meta-level features and learning to rank: the timings of
Table 2 (:mod:`.timing`), the Vowel experiment of Table 7 (:mod:`.vowel`), and the protocol behind Tables 3-6 and
Fig. 2 (:mod:`.experiments`: the methods, the profiles and the chapters' comparisons, run by the engine
:mod:`labelrank.protocol`)."""
