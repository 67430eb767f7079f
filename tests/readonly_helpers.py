"""A database file nobody can write, for real: tests run as root in CI, and root ignores file
modes, so the code under test runs in a subprocess whose capability bounding set lacks
CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH and CAP_FOWNER (util-linux's `setpriv`). There, as for
any ordinary user, a file of mode 444 in a folder of mode 555 can be read but not written,
and no journal or write-ahead-log file can be created beside it. The subprocess checks that
first (`WRITE_DENIED`), so a test cannot pass on a file that was in fact writable."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DROP = "--bounding-set=-dac_override,-dac_read_search,-fowner"

WRITE_CHECK = """
import json, sys
from pathlib import Path
_path = Path(sys.argv[1])
try:
    open(_path, "ab").close()
    (_path.parent / "probe").write_text("x")
except PermissionError:
    pass
else:
    print(json.dumps({"WRITE_DENIED": False}))
    sys.exit(0)
"""


def make_read_only(path: Path) -> None:
    """The file and its folder lose every write bit."""
    path.chmod(0o444)
    path.parent.chmod(0o555)


def restore_writable(path: Path) -> None:
    path.parent.chmod(0o755)
    path.chmod(0o644)


def run_without_write_rights(code: str, path: Path, env: dict[str, str] | None = None) -> dict:
    """Run `code` (which prints one JSON object last) with `path` as sys.argv[1], unable to
    write it; returns that object, with WRITE_DENIED: True when the write check held."""
    command = [sys.executable, "-c", WRITE_CHECK + code, str(path)]
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        assert setpriv is not None, "util-linux's setpriv is needed to drop root's file rights"
        command = [setpriv, DROP, *command]
    environment = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests")]),
        "PYTHONDONTWRITEBYTECODE": "1",
        **(env or {}),
    }
    done = subprocess.run(
        command, cwd=ROOT, env=environment, capture_output=True, text=True, timeout=180
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    result.setdefault("WRITE_DENIED", True)
    return result
