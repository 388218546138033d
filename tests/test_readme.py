"""The README's console examples are run: ``cat FILE`` blocks create the files, every other command after a ``$``
prompt is executed in that folder and must print exactly the lines shown below it (stdout and stderr together)."""

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
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


def _full_history():
    """True in a git checkout with its whole history (a shallow clone may not hold the commit named)."""
    if not (ROOT / ".git").exists():
        return False
    shallow = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--is-shallow-repository"], capture_output=True,
                             text=True)
    return shallow.returncode == 0 and shallow.stdout.strip() == "false"


DURATION = re.compile(r"\b\d[\d,.]*\s?(?:min|s|h|GB|MB)\b")


def test_readme_measurements_are_dated():
    """A time or memory figure in the README is a measurement: its paragraph says when and at which commit."""
    for paragraph in README.read_text(encoding="utf-8").split("\n\n"):
        if paragraph.lstrip().startswith(("```", "$", "#")) or not DURATION.search(paragraph):
            continue
        dated = re.search(r"[Mm]easured\b.*?\b\d{4}-\d{2}-\d{2}\b", paragraph, flags=re.S)
        commit = re.search(r"commit `?([0-9a-f]{7,40})`?", paragraph)
        assert dated and commit, f"an undated measurement in the README:\n{paragraph}"
        if _full_history():
            known = subprocess.run(["git", "-C", str(ROOT), "cat-file", "-e", f"{commit.group(1)}^{{commit}}"],
                                   capture_output=True)
            assert known.returncode == 0, f"the README names a commit git does not know: {commit.group(1)}"
