"""scripts/execute_chapters.py: chapters executed side by side land in the cache the build reads, failures do not.

The end-to-end check that the build then finds them (the same notebook, hashed alike) is in test_book_browser.py.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import execute_chapters  # noqa: E402  (imported by name: the process pool pickles its function so)

FRONT = """---
jupytext:
  text_representation: {extension: .md, format_name: myst}
kernelspec: {display_name: Python 3, language: python, name: python3}
---
# A chapter
"""


def chapter(folder: Path, name: str, code: str) -> Path:
    path = folder / f"{name}.md"
    path.write_text(FRONT + f"\n```{{code-cell}} ipython3\n{code}\n```\n")
    return path


def test_every_chapter_of_the_toc_is_a_file_and_the_notebooks_are_read():
    files = execute_chapters.toc_files()
    assert files[0] == ROOT / "book" / "intro.md" and all(f.is_file() for f in files), files
    notebooks = [f for f in files if execute_chapters.read_chapter(f, execute_chapters.md_config()) is not None]
    assert ROOT / "book" / "meta_features.md" in notebooks and ROOT / "book" / "intro.md" not in notebooks
    nb = execute_chapters.read_chapter(ROOT / "book" / "la_bdm.md", execute_chapters.md_config())
    assert any(cell.cell_type == "code" and "import" in cell.source for cell in nb.cells)


def test_chapters_run_side_by_side_into_the_cache_and_a_failure_is_reported_not_cached(tmp_path, monkeypatch, capsys):
    from jupyter_cache import get_cache

    book = tmp_path / "book"
    book.mkdir()
    good = chapter(book, "good", "import os\nprint('ran in', os.path.basename(os.getcwd()))")
    also = chapter(book, "also", "print(6 * 7)")
    bad = chapter(book, "bad", "raise RuntimeError('this chapter is broken')")
    plain = book / "plain.md"
    plain.write_text("# Plain Markdown, not a notebook\n")
    monkeypatch.setattr(execute_chapters, "toc_files", lambda: [plain, good, bad, also])
    marker = tmp_path / "prepared"
    prepare = f"{sys.executable} -c \"open({str(marker)!r}, 'a').write('x')\""
    cache_dir = tmp_path / "cache"

    assert execute_chapters.main([str(cache_dir), "--jobs", "2", "--prepare", prepare]) == 1
    out = capsys.readouterr()
    assert "3 chapter(s) to execute" in out.out and "FAILED" in out.out and "this chapter is broken" in out.out
    assert "bad.md" in out.err and marker.read_text() == "x"
    cache, config = get_cache(str(cache_dir)), execute_chapters.md_config()
    for path, text in ((good, "ran in book"), (also, "42")):
        record = cache.match_cache_notebook(execute_chapters.read_chapter(path, config))
        assert record.uri == str(path) and record.data["execution_seconds"] > 0
        _, merged = cache.merge_match_into_notebook(execute_chapters.read_chapter(path, config))
        assert text in merged.cells[-1].outputs[0]["text"]
    with pytest.raises(KeyError):
        cache.match_cache_notebook(execute_chapters.read_chapter(bad, config))

    # the next run executes only the failed chapter (and prepares again for it); once it is mended, nothing
    bad.write_text(bad.read_text().replace("raise RuntimeError('this chapter is broken')", "print('mended')"))
    assert execute_chapters.main([str(cache_dir), "--jobs", "1", "--prepare", prepare]) == 0
    assert "1 chapter(s) to execute" in capsys.readouterr().out and marker.read_text() == "xx"
    assert execute_chapters.main([str(cache_dir), "--prepare", prepare]) == 0
    assert "0 chapter(s) to execute" in capsys.readouterr().out and marker.read_text() == "xx"
    # a text edit outside the code cells does not count
    good.write_text(good.read_text().replace("# A chapter", "# A chapter, retitled"))
    assert execute_chapters.main([str(cache_dir)]) == 0
    assert "0 chapter(s) to execute" in capsys.readouterr().out


def test_a_chapter_that_asks_to_run_alone_runs_first_with_no_other_beside_it(tmp_path, monkeypatch, capsys):
    book = tmp_path / "book"
    book.mkdir()
    log = tmp_path / "log"
    others = [chapter(book, name, f"import time\nopen({str(log)!r}, 'a').write(f'other {{time.time()}}\\n')")
              for name in ("first", "second")]
    alone = chapter(book, "timing", "import time\nt0 = time.time()\ntime.sleep(1)\n"
                                    f"open({str(log)!r}, 'a').write(f'alone {{t0}} {{time.time()}}\\n')")
    alone.write_text(alone.read_text().replace("kernelspec:", "labelrank: {execute_alone: true}\nkernelspec:"))
    monkeypatch.setattr(execute_chapters, "toc_files", lambda: [others[0], alone, others[1]])
    config = execute_chapters.md_config()
    assert execute_chapters.executes_alone(execute_chapters.read_chapter(alone, config))
    assert not execute_chapters.executes_alone(execute_chapters.read_chapter(others[0], config))
    assert execute_chapters.executes_alone(execute_chapters.read_chapter(ROOT / "book" / "meta_features.md", config))

    assert execute_chapters.main([str(tmp_path / "cache"), "--jobs", "2"]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("executed")]
    assert "timing.md" in lines[0] and "by itself" in lines[0] and not any("by itself" in x for x in lines[1:])
    records = [line.split() for line in log.read_text().splitlines()]
    (_, _, alone_end), = [r for r in records if r[0] == "alone"]
    assert len(records) == 3 and all(float(r[1]) >= float(alone_end) for r in records if r[0] == "other")


def test_a_failing_prepare_command_stops_before_any_chapter_runs(tmp_path, monkeypatch, capsys):
    book = tmp_path / "book"
    book.mkdir()
    good = chapter(book, "good", "print(1)")
    monkeypatch.setattr(execute_chapters, "toc_files", lambda: [good])
    code = execute_chapters.main([str(tmp_path / "cache"), "--prepare", f"{sys.executable} -c 'raise SystemExit(3)'"])
    assert code == 3 and "failed (exit code 3)" in capsys.readouterr().err
    assert "executed" not in capsys.readouterr().out


def test_jobs_must_be_positive(tmp_path, capsys):
    with pytest.raises(SystemExit):
        execute_chapters.main([str(tmp_path / "cache"), "--jobs", "0"])
    assert "--jobs must be at least 1, got 0" in capsys.readouterr().err


def test_a_kernel_that_fails_to_start_is_started_again_and_other_errors_are_not_retried(tmp_path, monkeypatch,
                                                                                           capsys):
    """Two kernels started at once can pick the same port and one dies before any cell runs: the chapter is run
    again, at most KERNEL_START_ATTEMPTS times in all; any other exception escapes at once."""
    import nbformat

    path = chapter(tmp_path, "retry", "print(6 * 7)")
    text = nbformat.writes(execute_chapters.read_chapter(path, execute_chapters.md_config()))
    real, calls = execute_chapters.single_nb_execution, []

    def failing(errors):
        def run(*args, **kwargs):
            calls.append(1)
            if len(calls) <= len(errors):
                raise errors[len(calls) - 1]
            return real(*args, **kwargs)
        return run

    monkeypatch.setattr(execute_chapters, "single_nb_execution",
                        failing([RuntimeError("Kernel didn't respond in 60 seconds")]))
    executed, error, _, _ = execute_chapters.execute(str(path), text, 60)
    assert error is None and len(calls) == 2 and "42" in executed
    assert "the kernel did not start" in capsys.readouterr().out

    calls.clear()
    monkeypatch.setattr(execute_chapters, "single_nb_execution", failing([ValueError("not a start failure")]))
    with pytest.raises(ValueError, match="not a start failure"):
        execute_chapters.execute(str(path), text, 60)
    assert len(calls) == 1

    calls.clear()
    start = RuntimeError("Kernel didn't respond in 60 seconds")
    monkeypatch.setattr(execute_chapters, "single_nb_execution", failing([start] * 5))
    with pytest.raises(RuntimeError, match="Kernel didn't respond"):
        execute_chapters.execute(str(path), text, 60)
    assert len(calls) == execute_chapters.KERNEL_START_ATTEMPTS
