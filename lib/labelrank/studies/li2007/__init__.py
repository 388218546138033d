"""Li, Bontcheva & Cunningham (2007), cost-sensitive evaluation for F-term patent classification: the criteria for
misclassification costs (:mod:`.criteria`), the reconstruction of theme 2C088's tree from Table 1
(:mod:`.reconstruct`), the simulated NTCIR-6 study (:mod:`.fterm_sim`) and the flat and top-down label rankers
of the real-data case studies (:mod:`.tree_rankers`)."""
