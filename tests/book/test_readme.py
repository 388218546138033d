"""The README's console examples are run: ``cat FILE`` blocks create the files, every other command after a ``$``
prompt is executed in that folder and must print exactly the lines shown below it (stdout and stderr together)."""

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"


def console_sessions(text):
    """(command, shown output lines) for every ``$`` line of the README's ``bash`` blocks, in order."""
    sessions = []
    for block in re.findall(r"```bash\n(.*?)```", text, flags=re.S):
        lines = block.splitlines()
        if not any(line.startswith("$ ") for line in lines):
            continue  # a block of commands to type, not a console transcript
        for line in lines:
            if line.startswith("$ "):
                sessions.append((line[2:], []))
            elif sessions:
                sessions[-1][1].append(line)
    return sessions


def test_the_readme_has_console_examples():
    commands = [command for command, _ in console_sessions(README.read_text(encoding="utf-8"))]
    assert sum(c.startswith("labelrank score") for c in commands) >= 2, commands


def test_readme_console_examples(tmp_path):
    (tmp_path / "data").symlink_to(ROOT / "data", target_is_directory=True)
    executable = Path(sys.executable).parent / "labelrank"
    if not executable.exists():
        pytest.skip(f"the console script is not installed next to {sys.executable}")
    for command, shown in console_sessions(README.read_text(encoding="utf-8")):
        argv = shlex.split(command)
        if argv[0] == "cat" and len(argv) == 2:
            (tmp_path / argv[1]).write_text("\n".join(shown) + "\n", encoding="utf-8")
            continue
        assert argv[0] == "labelrank", f"the README shows a command this test cannot run: {command!r}"
        done = subprocess.run([str(executable), *argv[1:]], cwd=tmp_path, capture_output=True, text=True,
                              timeout=120)
        printed = (done.stdout + done.stderr).rstrip("\n").splitlines()
        assert printed == shown, f"{command}\nREADME shows:\n" + "\n".join(shown) + "\nprinted:\n" + "\n".join(printed)


def test_the_readme_is_a_front_door():
    """At most 12 KB: what the project is, the two commands, install, data, a tested example, profiles, the
    cluster recipe, layout, citing (tests/book/test_no_history.py keeps measurements and history out of it)."""
    text = README.read_text(encoding="utf-8")
    assert len(text.encode("utf-8")) <= 12 * 1024, len(text.encode("utf-8"))
    for heading in ("## The two commands", "## Installing the library alone", "## Data", "## Scoring runs",
                    "## Profiles", "## The exact protocol on a cluster", "## Layout", "## Citing"):
        assert heading in text, heading


BUILD_TIMES = re.compile(r"On a machine of (\d+) cores \(the newest records of `benchmarks/bench_build.py`\), "
                         r"`make test` takes (about \d+ (?:minutes|seconds)) cold and (about \d+ (?:minutes|seconds)) "
                         r"warm, `make book` (about \d+ (?:minutes|seconds)) cold and (about \d+ (?:minutes|seconds)) warm")


def duration(seconds: float) -> str:
    """A duration as the README states it: whole minutes from two minutes on, else whole seconds."""
    return f"about {round(seconds / 60)} minutes" if seconds >= 120 else f"about {round(seconds)} seconds"


def test_the_readme_build_times_are_the_newest_record():
    """The README's figure per command and state is that of the newest ``benchmarks/bench_build.py`` record that
    holds it, and every such record was taken on a machine of the cores the README names."""
    from labelrank.studies import performance

    match = BUILD_TIMES.search(" ".join(README.read_text(encoding="utf-8").split()))
    assert match, "the README states the cold and warm times of make test and make book"
    rows = performance.latest_rows("bench_build", "commands", ["command", "state"]).set_index(["command", "state"])
    cores = {r["file"]: r["machine"]["cores"] for r in performance.load_records() if r["benchmark"] == "bench_build"}
    assert {cores[name] for name in rows["record"]} == {int(match.group(1))}
    expected = [duration(rows.loc[(command, state), "wall_seconds"])
                for command in ("make test", "make book") for state in ("cold", "warm")]
    assert list(match.groups()[1:]) == expected

