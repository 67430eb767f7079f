"""The test files of dp/ say truly what they test: every `dp/<module>.py` a test file's
docstring names exists, and a file named `test_dp_<module>…` tests a module of that name.
(Four files named modules that had been merged away: dp/choose.py, dp/inference.py,
dp/intervals.py, dp/pitfalls.py.)"""

import ast
import re
from pathlib import Path

from conftest import ROOT

DP = ROOT / "dp"
HERE = Path(__file__).resolve().parent
MODULES = {path.stem for path in DP.glob("*.py") if not path.stem.startswith("_")}
# Files that test a property across every module, not one module.
ACROSS_MODULES = {
    "bad_inputs",
    "edges",
    "extremes",
    "exact_values",
    "ldp_oracles",
    "opendp",
    "samplers",
    "test_files",
    "types",
    "unbiasedness",
}


def named_modules(text: str) -> set[str]:
    return set(re.findall(r"\bdp/(\w+)\.py\b", text))


def test_every_module_a_docstring_names_exists() -> None:
    for path in HERE.glob("test_*.py"):
        docstring = ast.get_docstring(ast.parse(path.read_text())) or ""
        if path.name == Path(__file__).name:
            continue  # this file names the old modules on purpose
        missing = named_modules(docstring) - MODULES
        assert not missing, f"{path.name} names {sorted(missing)}, which dp/ does not have"


def test_every_file_is_named_after_a_module_or_a_property() -> None:
    for path in HERE.glob("test_*.py"):
        subject = path.stem.removeprefix("test_dp_")
        assert path.stem.startswith("test_dp_"), path.name
        assert subject in ACROSS_MODULES or any(
            subject == module or subject.startswith(f"{module}_") for module in MODULES
        ), f"{path.name}: no dp/{subject}.py"


def test_a_wrong_name_would_be_caught() -> None:
    assert named_modules('"""dp/choose.py: the crossover."""') - MODULES == {"choose"}
