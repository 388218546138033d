"""The package as a user installs it: ``pip install labelrank`` from the built wheel, core dependencies only.

The wheel and the sdist are built (``python -m build``), checked (``twine check``), and the wheel is installed with
its core dependencies into a fresh virtual environment, outside the checkout. There the README's ``labelrank score``
examples print what the README shows, a ``bdm`` call gives the development install's value, no optional package
came along, and the modules that need an extra say which one.
"""

import json
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest
from test_readme import README, console_sessions

from labelrank.optional import PROVIDERS

ROOT = Path(__file__).resolve().parents[2]
OPTIONAL = sorted({dist.split("[")[0] for dist, _ in PROVIDERS.values()} - {"requests"})  # pip, not us, may pull requests


def _run(argv, **kwargs):
    done = subprocess.run([str(a) for a in argv], capture_output=True, text=True, timeout=600, **kwargs)
    assert done.returncode == 0, f"{' '.join(map(str, argv))} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


@pytest.fixture(scope="module")
def core_install(tmp_path_factory):
    """(dist folder, the fresh environment's bin folder, a working folder outside the checkout)."""
    base = tmp_path_factory.mktemp("wheel")
    dist = base / "dist"
    # built from a copy: setuptools writes its release tree (labelrank-<version>/) and egg-info into the source
    # folder, where the book build running beside this test in another worker would find them
    source = base / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".git", ".venv", "_build", "raw", "*.egg-info", "__pycache__", ".hypothesis", ".jupyter_cache"))
    # the sdist first, then the wheel from the unpacked sdist
    _run([sys.executable, "-m", "build", "--outdir", dist, source], cwd=base)
    env_dir = base / "venv"
    venv.EnvBuilder(with_pip=True, clear=True).create(env_dir)
    bin_dir = env_dir / "bin"
    wheel = next(dist.glob("labelrank-*.whl"))
    _run([bin_dir / "python", "-m", "pip", "install", "--quiet", "--disable-pip-version-check", wheel])
    work = base / "work"
    work.mkdir()
    (work / "data").symlink_to(ROOT / "data", target_is_directory=True)
    return dist, bin_dir, work


def test_twine_check_passes(core_install):
    dist, _, _ = core_install
    files = sorted(dist.iterdir())
    assert {f.suffix for f in files} >= {".whl", ".gz"}, files
    done = _run([sys.executable, "-m", "twine", "check", "--strict", *files])
    assert done.stdout.count("PASSED") == len(files), done.stdout


def test_core_install_has_no_optional_package(core_install):
    _, bin_dir, _ = core_install
    listed = json.loads(_run([bin_dir / "python", "-m", "pip", "list", "--format", "json"]).stdout)
    names = {p["name"].lower().replace("_", "-") for p in listed}
    assert "labelrank" in names
    assert not names & set(OPTIONAL), sorted(names & set(OPTIONAL))


def test_readme_examples_run_in_the_core_install(core_install):
    _, bin_dir, work = core_install
    shown_runs = 0
    for command, shown in console_sessions(README.read_text(encoding="utf-8")):
        argv = command.split()
        if argv[0] == "cat":
            (work / argv[1]).write_text("\n".join(shown) + "\n", encoding="utf-8")
            continue
        done = subprocess.run([str(bin_dir / "labelrank"), *argv[1:]], cwd=work, capture_output=True, text=True,
                              timeout=120, env={**os.environ, "PYTHONPATH": ""})
        assert (done.stdout + done.stderr).rstrip("\n").splitlines() == shown, command
        shown_runs += 1
    assert shown_runs >= 2


def test_bdm_in_the_core_install_equals_the_development_install(core_install):
    from labelrank.cost import bdm
    from labelrank.hierarchy import LabelTree

    _, bin_dir, work = core_install
    code = ("from labelrank.hierarchy import LabelTree; from labelrank.cost import bdm; "
            "t = LabelTree.from_file('data/fterm/2C088_figure1.yaml'); print(repr(bdm(t, 'AA01', 'AA02')))")
    done = _run([bin_dir / "python", "-c", code], cwd=work)
    expected = bdm(LabelTree.from_file(ROOT / "data/fterm/2C088_figure1.yaml"), "AA01", "AA02")
    assert float(done.stdout) == expected


@pytest.mark.parametrize(("module", "extra"), [("labelrank.features", "rank"), ("labelrank.rankers", "rank"),
                                               ("labelrank.protocol", "protocol")])
def test_a_module_that_needs_an_extra_names_it(core_install, module, extra):
    _, bin_dir, work = core_install
    done = subprocess.run([str(bin_dir / "python"), "-c", f"import {module}"], cwd=work, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 1
    assert f"ImportError: {module}" in done.stderr or "needs" in done.stderr, done.stderr[-2000:]
    assert f"pip install 'labelrank[{extra}]'" in done.stderr, done.stderr[-2000:]


def test_binary_svm_in_the_core_install_names_the_extra_of_its_default_solver(core_install):
    """Without the `rank` extra Binary-SVM's augmented Lagrangian solver says what to install; LIBLINEAR runs."""
    _, bin_dir, work = core_install
    code = ("import numpy as np; from labelrank.baselines import BinarySVM\n"
            "X = np.arange(12.0).reshape(6, 2); Y = np.array([[0, 1], [1, 0]] * 3)\n"
            "print(BinarySVM(solver='liblinear').fit(X, Y).predict(X).shape)\n"
            "BinarySVM().fit(X, Y)")
    done = subprocess.run([str(bin_dir / "python"), "-c", code], cwd=work, capture_output=True, text=True,
                          timeout=120)
    assert done.stdout.strip() == "(6, 2)", done.stderr[-2000:]
    assert done.returncode == 1
    assert "pip install 'labelrank[rank]', or pass solver='liblinear'" in done.stderr, done.stderr[-2000:]


CHAPTER = "vowel"  # reads a data set from LABELRANK_DATA and a transcribed table of the paper


@pytest.fixture(scope="module")
def notebook_install(core_install, tmp_path_factory):
    """An environment where labelrank is the wheel (not the checkout) with what the chapters import.

    The wheel is installed without its dependencies; those of the ``notebooks`` extra are the development
    environment's, reached through a ``.pth`` line (this machine may have no package index). Only labelrank itself
    and its installed data come from the wheel, so a chapter that runs here runs outside the checkout.
    """
    import sysconfig

    dist, _, _ = core_install
    base = tmp_path_factory.mktemp("notebooks")
    env_dir = base / "venv"
    venv.EnvBuilder(with_pip=True, clear=True).create(env_dir)
    bin_dir = env_dir / "bin"
    site = Path(_run([bin_dir / "python", "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"])
                .stdout.strip())
    (site / "development-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    wheel = next(dist.glob("labelrank-*.whl"))
    _run([bin_dir / "python", "-m", "pip", "install", "--quiet", "--no-deps", "--disable-pip-version-check", wheel])
    return bin_dir, base


def test_the_installed_package_carries_its_data(notebook_install):
    bin_dir, base = notebook_install
    code = ("import labelrank, labelrank.paths as p; from labelrank.studies import paper; "
            "print(labelrank.__file__); print(p.data_dir()); print(len(paper.load('yang2012_table2')))")
    where, data, rows = _run([bin_dir / "python", "-c", code], cwd=base, env={**os.environ, "PYTHONPATH": ""}) \
        .stdout.split()
    assert not Path(where).is_relative_to(ROOT) and not Path(data).is_relative_to(ROOT), (where, data)
    assert int(rows) > 0


def test_a_downloaded_chapter_runs_outside_the_checkout(notebook_install):
    """The chapter as the rendered book offers it (the build's own conversion to .ipynb), executed top to bottom
    under the quick profile in a fresh folder, its data from the mirror."""
    mirror = os.environ.get("LABELRANK_DATA")
    if not mirror:
        pytest.skip("set LABELRANK_DATA to a data mirror (such as ../shared/datasets)")
    import nbformat

    sys.path.insert(0, str(ROOT / "book" / "_ext"))
    from rerun_note import notebook_of

    bin_dir, base = notebook_install
    work = base / "fresh"
    work.mkdir()
    nbformat.write(notebook_of(ROOT / "book" / f"{CHAPTER}.md"), work / f"{CHAPTER}.ipynb")
    code = ("import nbformat, nbclient; nb = nbformat.read('{0}.ipynb', 4); "
            "nbclient.NotebookClient(nb, timeout=900, kernel_name='python3').execute(); "
            "nbformat.write(nb, '{0}.executed.ipynb')").format(CHAPTER)
    env = {**os.environ, "PYTHONPATH": "", "LABELRANK_PROFILE": "quick", "LABELRANK_DATA": mirror,
           "LABELRANK_CACHE": str(base / "cache"), "MPLBACKEND": "Agg"}
    _run([bin_dir / "python", "-c", code], cwd=work, env=env)
    executed = nbformat.read(work / f"{CHAPTER}.executed.ipynb", 4)
    code_cells = [c for c in executed.cells if c.cell_type == "code"]
    assert code_cells and all(c.get("execution_count") for c in code_cells)
    assert not [o for c in code_cells for o in c.get("outputs", []) if o.get("output_type") == "error"]
