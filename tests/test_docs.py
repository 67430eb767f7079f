"""The docs are true where a test can tell: docs/ARCHITECTURE.md exists and every file,
folder and test it names is there; the README's and CONTRIBUTING's links lead somewhere;
nothing cites a design file outside the repository, and no comment says "issue N" instead
of what it means."""

from __future__ import annotations

import re
import subprocess

import pytest

from conftest import ROOT

DOCS = [
    "README.md",
    "CONTRIBUTING.md",
    "docs/ARCHITECTURE.md",
    "docs/lecturer.md",
    "docs/deployment.md",
    "docs/homework.md",
    "docs/accessibility.md",
    "bench/README.md",
]
# a path in backticks: a folder/ or a file with an extension, under a top-level folder or at
# the root (`tests/ui/test_browser_sweeps.py`, `ui/charts.py`, `app.py`, `deploy/`)
PATH = re.compile(r"`((?:[\w.-]+/)+(?:[\w.-]+\.(?:py|md|cfg|toml|yaml|css|sh|gz))?)`")
ISSUE = re.compile(r"\b[Ii]ssues? #?\d+")


def tracked() -> list[str]:
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    return out.stdout.split()


@pytest.mark.parametrize("doc", ["docs/ARCHITECTURE.md", "CONTRIBUTING.md"])
def test_every_path_a_doc_names_exists(doc: str) -> None:
    text = (ROOT / doc).read_text(encoding="utf-8")
    named = set(PATH.findall(text))
    assert named, f"{doc} names no file"
    # the recipes' scratch lesson, activity and test file (CONTRIBUTING) are written by their
    # tests, not kept
    scratch = ("noisy_count", "class_hands", "test_dp_laplace_truncated")
    missing = sorted(
        p for p in named if not (ROOT / p).exists() and not any(s in p for s in scratch)
    )
    missing = [p for p in missing if "<" not in p]
    assert missing == [], f"{doc} names files that do not exist: {missing}"


def test_a_broken_path_would_be_caught() -> None:
    assert PATH.findall("see `ui/nowhere.py` and `tests/ui/`") == ["ui/nowhere.py", "tests/ui/"]


@pytest.mark.parametrize("doc", DOCS)
def test_every_relative_link_leads_to_a_file(doc: str) -> None:
    text = (ROOT / doc).read_text(encoding="utf-8")
    base = (ROOT / doc).parent
    for target in re.findall(r"\]\(([^)#]+)\)", text):
        if not target.startswith(("http://", "https://")):
            assert (base / target).exists(), f"{doc} links to {target}, which is not there"


def test_nothing_cites_a_design_file_outside_the_repository() -> None:
    found = []
    for name in tracked():
        path = ROOT / name
        if name == "tests/test_docs.py":  # this file names them, to look for them
            continue
        if path.suffix in {".py", ".md", ".toml", ".cfg", ".yaml", ".css"} or name == "Makefile":
            text = path.read_text(encoding="utf-8", errors="replace")
            if re.search(r"\bDESIGN\b|DESIGN\.md|STYLE\.md|DEVELOPERS\.md", text):
                found.append(name)
    assert found == []


def test_no_comment_says_issue_n_instead_of_what_it_means() -> None:
    found = []
    for name in tracked():
        path = ROOT / name
        if path.suffix in {".py", ".css", ".toml", ".cfg", ".yaml", ".sh"} or name == "Makefile":
            for number, line in enumerate(path.read_text("utf-8", errors="replace").split("\n")):
                if ISSUE.search(line):
                    found.append(f"{name}:{number + 1}: {line.strip()}")
    assert found == [], "\n".join(found)


def test_the_readme_fits_a_newcomers_screen() -> None:
    """The README was 47.8 KB, its opening a log of test timings: what it is, the two
    commands, the lessons, the classroom and deployment in brief, and links, in 16 KB."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.encode()) <= 16_000
    assert "make run" in readme and "make test" in readme
    for guide in ("docs/lecturer.md", "docs/deployment.md", "docs/homework.md"):
        assert f"]({guide})" in readme
