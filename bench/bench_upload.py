"""Memory and time of reading an upload (data/upload.read_upload), per file shape and size.

Each file is read in a fresh Python process, so "peak RSS increase" is that process's peak
resident memory (VmHWM) minus its resident memory just before the read: what one
upload costs the server on top of what it already holds. Prints a Markdown table; asserts
nothing. Run with `make bench` (or `.venv/bin/python bench/bench_upload.py`).

Targets: peak RSS increase <= 150 MB for any file the uploader accepts (25 MB at
most), and <= 5 s to parse 25 MB.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MB = 1024 * 1024


def tall(size: int) -> bytes:
    """Tiny rows, 'Job,Hours': the most rows per byte (the issue's 5.97 M-row case)."""
    jobs = [b"Sales", b"Clerk", b"Cook", b"Nurse"]
    rows, total, i = [b"Job,Hours\n"], 10, 0
    while total < size:
        row = jobs[i % 4] + b"," + str(i % 97).encode() + b"\n"
        rows.append(row)
        total += len(row)
        i += 1
    return b"".join(rows)


def census_like(size: int) -> bytes:
    """Rows like the census: 8 columns, text and numbers, an ID column of unique values."""
    rows, total, i = [b"Id,Age,Job,Town,Sex,Hours,Income,Note\n"], 40, 0
    towns = [b"Leeds", b"York", b"Hull", b"Bath", b"Ely"]
    while total < size:
        row = b"%d,%d,Job%d,%s,%s,%d,%d,note number %d\n" % (
            i,
            18 + i % 70,
            i % 14,
            towns[i % 5],
            b"FM"[i % 2 : i % 2 + 1],
            i % 99,
            i * 7 % 100_003,
            i,
        )
        rows.append(row)
        total += len(row)
        i += 1
    return b"".join(rows)


def wide(columns: int) -> bytes:
    """One header and three rows of `columns` columns (the issue's 100,000-column case)."""
    header = b",".join(b"c%d" % j for j in range(columns)) + b"\n"
    row = b",".join(b"v" for _ in range(columns)) + b"\n"
    return header + row * 3


def category_bomb(columns: int = 2_000, values: int = 50) -> bytes:
    """`columns` text columns with `values` distinct values each (the issue's 100,000-option
    selectbox)."""
    header = b",".join(b"c%d" % j for j in range(columns)) + b"\n"
    rows = [
        b",".join(b"v%d" % ((r + j) % values) for j in range(columns)) + b"\n"
        for r in range(values)
    ]
    return header + b"".join(rows)


def wide_rows(size: int, columns: int = 200) -> bytes:
    """The widest file the uploader accepts (200 columns), as many rows as fit in `size`:
    short numbers, and a text column so the file is not all numbers."""
    header = b"name," + b",".join(b"x%d" % j for j in range(columns - 1)) + b"\n"
    rows, total, i = [header], len(header), 0
    while total < size:
        row = b"p%d," % (i % 40) + b",".join(b"%d" % ((i + j) % 10) for j in range(columns - 1))
        row += b"\n"
        rows.append(row)
        total += len(row)
        i += 1
    return b"".join(rows)


def bomb_rows(size: int, columns: int = 200, values: int = 50) -> bytes:
    """An accepted category bomb: 200 text columns of 50 values each, rows up to `size`."""
    header = b",".join(b"c%d" % j for j in range(columns)) + b"\n"
    rows, total, r = [header], len(header), 0
    while total < size:
        row = b",".join(b"v%d" % ((r + j) % values) for j in range(columns)) + b"\n"
        rows.append(row)
        total += len(row)
        r += 1
    return b"".join(rows)


CHILD = """
import sys, time
sys.path.insert(0, {root!r})
from data.upload import UploadError, read_upload
raw = open({path!r}, "rb").read()
def status(field):
    for line in open("/proc/self/status"):
        if line.startswith(field):
            return int(line.split()[1]) / 1024
before = status("VmRSS")
start = time.perf_counter()
try:
    frame = read_upload(raw, "bench.csv", max_bytes=25 * 1024 * 1024)
    outcome = f"accepted: {{len(frame):,}} rows × {{frame.shape[1]}} columns"
except UploadError as error:
    outcome = "refused: " + str(error).replace("bench.csv ", "")[:75]
seconds = time.perf_counter() - start
peak = status("VmHWM")  # not ru_maxrss: Linux carries it over from the parent across exec
print(f"{{peak - before:.0f}}|{{seconds:.2f}}|{{outcome}}")
"""


def measure(name: str, data: bytes) -> str:
    path = Path("/tmp") / f"bench-upload-{name}.csv"
    path.write_bytes(data)
    code = CHILD.format(root=str(ROOT), path=str(path))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=900)
    path.unlink()
    if out.returncode != 0:
        last = out.stderr.strip().splitlines()[-1][:60]
        return f"| {name} | {len(data) / MB:,.1f} | – | – | crashed: {last} |"
    increase, seconds, outcome = out.stdout.strip().split("|", 2)
    return f"| {name} | {len(data) / MB:,.1f} | {increase} | {seconds} | {outcome} |"


def main() -> None:
    print("# Reading an upload: peak RSS increase and time (fresh process per file)\n")
    print("| file | MB | peak RSS increase (MB) | seconds | outcome |")
    print("|---|---:|---:|---:|---|")
    cases = [
        ("tall 1 MB", lambda: tall(1 * MB)),
        ("tall 10 MB", lambda: tall(10 * MB)),
        ("tall 25 MB", lambda: tall(25 * MB - 1024)),
        ("census-like 1 MB", lambda: census_like(1 * MB)),
        ("census-like 10 MB", lambda: census_like(10 * MB)),
        ("census-like 25 MB", lambda: census_like(25 * MB - 1024)),
        ("wide 200 columns 1 MB", lambda: wide_rows(1 * MB)),
        ("wide 200 columns 10 MB", lambda: wide_rows(10 * MB)),
        ("wide 200 columns 25 MB", lambda: wide_rows(25 * MB - 4096)),
        ("wide 10,000 columns", lambda: wide(10_000)),
        ("wide 100,000 columns", lambda: wide(100_000)),
        ("category bomb 200 × 50, 1 MB", lambda: bomb_rows(1 * MB)),
        ("category bomb 200 × 50, 10 MB", lambda: bomb_rows(10 * MB)),
        ("category bomb 200 × 50, 25 MB", lambda: bomb_rows(25 * MB - 4096)),
        ("category bomb 2,000 × 50", category_bomb),
    ]
    for name, make in cases:
        print(measure(name, make()), flush=True)


if __name__ == "__main__":
    main()
