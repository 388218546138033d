# labelrank-book. `make book` builds the book, `make test` runs every test; both bootstrap .venv first.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
export PATH := $(abspath $(BIN)):$(PATH)
export PYDEVD_DISABLE_FILE_VALIDATION := 1

.PHONY: all book test quick-book data bench clean distclean

all: book

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[book,test,dask,crosscheck]"
	touch $(STAMP)

data: $(STAMP)
	$(BIN)/labelrank data fetch

# The full profile (the papers' protocol) builds into _build/html. When a chapter's code changed (or nothing is
# cached), the experiments are computed first on every core, then the chapters execute side by side into the cache
# the build reads (scripts/execute_chapters.py), and the build renders.
EXPERIMENTS := -m labelrank.studies.yang2012.experiments
book: data
	LABELRANK_PROFILE=full $(BIN)/python scripts/execute_chapters.py _build/.jupyter_cache \
		--prepare "$(BIN)/python $(EXPERIMENTS) --profile full"
	LABELRANK_PROFILE=full $(BIN)/jupyter-book build -W -n --keep-going --path-output . .

# The quick profile builds into _build/quick/_build/html (the browser test builds it so, without --prepare: its
# chapters compute the few quick results they lack themselves).
quick-book: data
	LABELRANK_PROFILE=quick $(BIN)/python scripts/execute_chapters.py _build/quick/_build/.jupyter_cache \
		--prepare "$(BIN)/python $(EXPERIMENTS) --profile quick"
	LABELRANK_PROFILE=quick $(BIN)/jupyter-book build -W -n --keep-going --path-output _build/quick .

# Two test workers, one BLAS thread each: the tests' linear algebra is many small solves, between which a second
# OpenBLAS thread waits busily and takes the other worker's core.
test: $(STAMP)
	OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 \
		$(BIN)/python -m pytest -n 2 --dist loadfile

# Every benchmark writes its figures to benchmarks/records/ (the book's page "How the experiments run and what they
# cost" renders the newest record of each command below). bench_build.py times make test and make book in a fresh
# clone of the last commit, so commit first. One thread each, the figures being CPU seconds of one core.
BENCHMARKS := \
	bench_bdm_matrix.py \
	bench_score_scale.py \
	bench_score.py \
	bench_meta_features.py \
	"bench_protocol.py --datasets emotions scene yeast" \
	"bench_protocol.py --datasets reuters21578" \
	"bench_protocol.py --fig2 --datasets emotions scene yeast" \
	"bench_protocol.py --fig2 --fig2-labels 4 --datasets reuters21578" \
	bench_build.py
bench: $(STAMP)
	for b in $(BENCHMARKS); do echo "== $$b"; $(BIN)/python benchmarks/$$b || exit 1; done

clean:
	rm -rf _build

distclean: clean
	rm -rf $(VENV) data/raw
