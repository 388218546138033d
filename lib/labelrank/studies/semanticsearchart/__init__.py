"""Semantic Search Art, the F-measure of a document clustering: the clustering study on 20 Newsgroups
(:mod:`.clustering_study`) and the PATENTCORPUS5000 layout with its class-definition retrieval example
(:mod:`.patentcorpus`). The measure itself is :func:`labelrank.metrics.greedy_f_measure`."""
