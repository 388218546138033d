"""The rendered book's repository, issues and Binder buttons, shown only for a real repository address.

The address is a setting of the build, not of the book: ``LABELRANK_BOOK_REPOSITORY`` (for example
``https://github.com/owner/labelrank-book``, the repository the book is published from) and, optionally,
``LABELRANK_BOOK_BRANCH`` (default ``main``). Without it the pages carry no repository link and no launch button,
since a link to an address nobody has checked leads nowhere; every chapter still offers its notebook as a download
(``rerun_note``).
"""

from __future__ import annotations

import os
import re

_GITHUB = re.compile(r"https://github\.com/[A-Za-z0-9][A-Za-z0-9-]*/[A-Za-z0-9._-]+")


def repository_options(environ=os.environ) -> dict:
    """The theme options for the configured repository ({} without one); a malformed address is an error."""
    url = environ.get("LABELRANK_BOOK_REPOSITORY", "").strip().rstrip("/")
    if not url:
        return {}
    if not _GITHUB.fullmatch(url):
        raise ValueError(f"LABELRANK_BOOK_REPOSITORY must be a GitHub repository address "
                         f"(https://github.com/<owner>/<name>), got {url!r}")
    return {
        "repository_url": url,
        "repository_branch": environ.get("LABELRANK_BOOK_BRANCH", "main"),
        "path_to_docs": "",
        "use_repository_button": True,
        "use_issues_button": True,
        # Binder builds the repository's environment.yml, which installs jupytext: the chapters open as notebooks
        "launch_buttons": {"binderhub_url": "https://mybinder.org", "notebook_interface": "jupyterlab"},
    }


def _configure(app, config) -> None:
    options = dict(config.html_theme_options or {})
    for key in ("repository_url", "repository_branch", "use_repository_button", "use_issues_button",
                "use_edit_page_button", "launch_buttons"):
        options.pop(key, None)
    options.update(repository_options())
    config.html_theme_options = options


def setup(app):
    app.connect("config-inited", _configure)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
