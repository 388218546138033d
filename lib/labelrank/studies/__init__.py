"""The reproductions of the book's three sources, one sub-package per source, built on the engine and the library.

* :mod:`labelrank.studies.li2007` -- Li, Bontcheva & Cunningham (2007): the criteria for misclassification costs,
  the reconstruction of the 2C088 tree (Table 1), the simulated NTCIR-6 study (Tables 2-3), the tree rankers.
* :mod:`labelrank.studies.semanticsearchart` -- Semantic Search Art: the clustering study on 20 Newsgroups.
* :mod:`labelrank.studies.yang2012` -- Yang & Gopal (2012): Table 2's timings and the Vowel experiment (Table 7);
  Tables 3-6 and Fig. 2 from the experiment engine (:mod:`labelrank.protocol`) run with
  :mod:`labelrank.studies.yang2012.experiments`.
* :mod:`labelrank.studies.paper` -- the papers' tables as transcribed in ``data/paper``;
  :mod:`labelrank.studies.scorecard` -- every recomputable number beside the paper's.

Arrows run one way: studies -> engine -> library. Nothing in the library imports a study.
"""
