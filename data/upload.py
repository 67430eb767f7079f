"""Checking an uploaded CSV and finding the columns the lessons can use (no Streamlit).

`read_upload` turns the bytes of an upload into a DataFrame or raises `UploadError` with a
message a student can act on. It changes nothing silently: values keep their spaces and
case, and missing values (empty fields, NA, N/A, NaN, null, ?) stay NaN and are counted by
`missing_values`. Text columns with at most `MAX_CATEGORIES` distinct values become pandas
`category` columns (like the census); other text columns stay strings; a column whose every
value is a number becomes a number column.

`categorical_columns` says which columns can drive the histogram lessons (k-ary RR, unary
encoding) and why the others cannot; `yes_no_conditions` lists the "column = value"
questions randomized response can ask. Showing any of it is ui/text.py's job
(`text.plain`): nothing from a file is ever rendered as HTML or markdown.
"""

from __future__ import annotations

import csv
import ctypes
import ctypes.util
import gc
import math
import re
from array import array
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

MAX_CATEGORIES = 50
# Bounds on an upload, so that one file cannot take the server (the smallest Community Cloud
# box has 690 MB): columns, rows and values read, and distinct texts kept per column.
MAX_COLUMNS = 200
MAX_ROWS = 1_000_000
MAX_CELLS = 5_000_000
MAX_DISTINCT = 100_000
MISSING_MARKERS = ("", "NA", "N/A", "NaN", "nan", "null", "NULL", "?")
DELIMITERS = (",", ";", "\t")
MAX_SINGLE_COLUMN_HEADER = 80
# The longest text of a file that the lessons show: a column's name (and the file's name)
# is cut to it, a column holding a longer value is free text, not categories. Every rerun
# sends what a page shows (a chart's labels, a menu's options, its alt text): the CSV
# reader's limit is 131,072 characters a field, and 50 categories of 100,000 made one
# slider press cost the server 0.55 s of CPU and send 13 MB.
MAX_TEXT_CHARS = 120
CONDITIONS_PER_COLUMN = 50
_MISSING = frozenset(MISSING_MARKERS)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


class UploadError(ValueError):
    """An upload the lessons cannot use; the message says why and what to do."""


def _megabytes(n_bytes: int) -> str:
    return f"{n_bytes / (1024 * 1024):,.1f} MB"


def _decode(raw: bytes, filename: str) -> str:
    """UTF-8 (with or without a byte-order mark), else Windows-1252 (Excel's "CSV").

    A file that is UTF-8 except for some bytes (an edit in another program) is refused with
    the line of the first bad byte: read as Windows-1252 it would turn every "é" of the
    UTF-8 part into "Ã©" and split one category into two."""
    binary = UploadError(
        f"{filename} holds binary bytes, not text: it is not a CSV file. "
        "Save your table as “CSV UTF-8 (comma delimited)” and upload that."
    )
    if b"\x00" in raw:
        raise binary
    try:
        text = raw.decode("utf-8-sig")  # one decode: a second copy of 25 MB is too many
    except UnicodeDecodeError as error:
        if _has_utf8_text(raw[: error.start]) or _has_utf8_text(raw[error.end :]):
            line = raw[: error.start].count(b"\n") + 1
            raise UploadError(
                f"{filename} mixes two text encodings: it is UTF-8, but line {line:,} holds "
                f"a byte (0x{raw[error.start]:02X}) that is not. Save the file again as "
                "“CSV UTF-8 (comma delimited)” and upload that."
            ) from None
        try:
            text = raw.decode("cp1252")
        except UnicodeDecodeError:
            raise binary from None
    # Text has tabs and line breaks, almost never other control characters.
    if _CONTROL.search(text, 0, 100_000):
        raise binary
    return text


def _lines(text: str):
    """The lines of `text`, each with its line break, one at a time: io.StringIO would copy
    the whole text (at up to 4 bytes a character) and splitlines would make every line at
    once. A file with only old Mac line breaks (CR) is read as if they were LF."""
    if "\n" not in text and "\r" in text:
        text = text.replace("\r", "\n")
    start, end = 0, len(text)
    while start < end:
        stop = text.find("\n", start)
        stop = end if stop < 0 else stop + 1
        yield text[start:stop]
        start = stop


def _has_utf8_text(raw: bytes) -> bool:
    """Whether `raw` holds at least one valid multi-byte UTF-8 character (e.g. "é" as
    C3 A9): Windows-1252 text almost never does by chance."""
    text = raw.decode("utf-8", errors="replace")
    return any(ord(char) > 127 and char != "\ufffd" for char in text)


def _delimiter(header_line: str) -> str:
    """The most frequent of comma, semicolon and tab in the header line (comma if none)."""
    counts = {d: header_line.count(d) for d in DELIMITERS}
    best = max(DELIMITERS, key=lambda d: counts[d])
    return best if counts[best] > 0 else ","


def _check_not_other_format(text: str, filename: str) -> None:
    """JSON, HTML and XML are refused by their shape, not by the file name."""
    body = text.strip()
    first_line = body.split("\n", 1)[0]
    table_like = any(d in first_line for d in DELIMITERS)
    if body[:1] + body[-1:] in ("{}", "[]"):
        raise UploadError(
            f"{filename} looks like JSON, not a CSV file. "
            "Export it as a table: one header row of column names, then one row per person."
        )
    markup_start = body[:9].lower().startswith(("<!doctype", "<html", "<?xml"))
    if markup_start or (body.startswith("<") and not table_like):
        raise UploadError(
            f"{filename} looks like HTML or XML, not a CSV file. "
            "Export it as a table: one header row of column names, then one row per person."
        )


def shorten(text: str, limit: int = MAX_TEXT_CHARS) -> str:
    """`text`, or its first `limit` − 1 characters and "…" when it is longer."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _reads_like_a_sentence(line: str) -> bool:
    """A long line, or five words ending with a full stop: prose, not a column name."""
    words = line.split()
    return len(line) > MAX_SINGLE_COLUMN_HEADER or (
        len(words) >= 5 and line.rstrip()[-1:] in (".", "!", "?")
    )


def _fields(n: int) -> str:
    return f"{n:,} field" if n == 1 else f"{n:,} fields"


class _Column:
    """One column read cell by cell, in bounded memory: each distinct text gets an int32
    code (missing markers: −1) until MAX_DISTINCT texts; past that, a column whose texts
    are all numbers keeps float64 values, and any other is dropped (an ID or free text: no
    lesson can use it)."""

    def __init__(self) -> None:
        self.codes: dict[str, int] | None = dict.fromkeys(MISSING_MARKERS, -1)
        self.cells: array = array("i")
        self.numbers: array | None = None
        self.dropped = False

    def add(self, value: str) -> None:
        if self.codes is not None:
            code = self.codes.get(value)
            if code is None:
                code = len(self.codes) - len(MISSING_MARKERS)
                if code >= MAX_DISTINCT:
                    self._to_numbers()
                    self.add(value)
                    return
                self.codes[value] = code
            self.cells.append(code)
        elif self.numbers is not None:
            if value in _MISSING:
                self.numbers.append(math.nan)
                return
            try:
                self.numbers.append(float(value))
            except ValueError:
                self._drop()

    def _to_numbers(self) -> None:
        """Too many distinct texts for codes: numbers from here on, or drop the column."""
        assert self.codes is not None
        try:
            table = {code: float(text) for text, code in self.codes.items() if code >= 0}
        except ValueError:
            self._drop()
            return
        self.numbers = array("d", (table[c] if c >= 0 else math.nan for c in self.cells))
        self.codes, self.cells = None, array("i")

    def _drop(self) -> None:
        self.codes, self.numbers, self.cells, self.dropped = None, None, array("i"), True

    def series(self, name: str) -> pd.Series:
        """Numbers if every present value is a number; else category (few values) or
        strings: the types the old whole-table reader gave, from the distinct texts only."""
        if self.numbers is not None:
            return pd.Series(np.frombuffer(self.numbers, dtype=np.float64), name=name)
        assert self.codes is not None
        texts = [
            text for text, code in sorted(self.codes.items(), key=lambda kv: kv[1]) if code >= 0
        ]
        codes = np.frombuffer(self.cells, dtype=np.int32)
        numbers = pd.to_numeric(pd.Series(texts, dtype=object), errors="coerce")
        if texts and not numbers.isna().any():
            values = numbers.to_numpy()[np.maximum(codes, 0)]
            if (codes < 0).any():
                values = np.where(codes < 0, np.nan, values.astype(np.float64))
            return pd.Series(values, name=name)
        if len(texts) <= MAX_CATEGORIES:
            order = sorted(range(len(texts)), key=texts.__getitem__)
            rank = np.empty(len(texts), dtype=np.int32)
            rank[order] = np.arange(len(texts), dtype=np.int32)
            sorted_codes = np.where(codes < 0, -1, rank[np.maximum(codes, 0)] if texts else -1)
            categories = [texts[i] for i in order]
            return pd.Series(pd.Categorical.from_codes(sorted_codes, categories), name=name)
        objects = np.array([*texts, np.nan], dtype=object)
        return pd.Series(objects[np.where(codes < 0, len(texts), codes)], name=name, dtype=object)


def _columns(text: str, filename: str, delimiter: str) -> tuple[list[str], list[_Column], int]:
    """Header, columns and the number of data rows, read row by row into `_Column`s; raise
    on broken quoting, nameless or repeated column names, too many columns, rows or cells,
    and rows whose number of fields differs from the header's."""
    reader = csv.reader(_lines(text), delimiter=delimiter, strict=True)
    header: list[str] | None = None
    columns: list[_Column] = []
    n_rows = 0
    try:
        for row in reader:
            if not row or row == [""]:
                continue  # a blank line is not a row
            if header is None:
                header = row
                if len(header) > MAX_COLUMNS:
                    raise UploadError(
                        f"{filename} has {len(header):,} columns; the lessons read at most "
                        f"{MAX_COLUMNS:,}. Keep the columns you want to explore and upload that."
                    )
                _check_header(header, filename)
                header = _shortened_names(header, filename)
                columns = [_Column() for _ in header]
                continue
            if len(row) != len(header):
                raise UploadError(
                    f"{filename}: line {reader.line_num:,} has {_fields(len(row))}, but the "
                    f"header row has {_fields(len(header))}. Every row needs one value per column "
                    "(leave a field empty for a missing value)."
                )
            n_rows += 1
            if n_rows > MAX_ROWS or n_rows * len(header) > MAX_CELLS:
                raise UploadError(
                    f"{filename} has more than {min(MAX_ROWS, MAX_CELLS // len(header)):,} rows "
                    f"of {_fields(len(header))}; the lessons read at most {MAX_ROWS:,} rows and "
                    f"{MAX_CELLS:,} values. Upload a random sample of your table."
                )
            for value, column in zip(row, columns, strict=True):
                column.add(value)
    except csv.Error as error:
        raise UploadError(
            f"{filename} is not a valid CSV file: line {reader.line_num:,}: {error}."
        ) from error
    if header is None:
        raise UploadError(f"{filename} is empty: there is no header row and no data.")
    if n_rows == 0:
        raise UploadError(
            f"{filename} has a header row but no data rows: there is nobody to count."
        )
    return header, columns, n_rows


def _check_header(header: list[str], filename: str) -> None:
    """Every column named, no name twice, and not a sentence instead of column names."""
    for position, name in enumerate(header, start=1):
        if name.strip() == "":
            raise UploadError(
                f"{filename}: column {position} has no name in the header row. "
                "Give every column a name (or delete the empty column)."
            )
    seen: set[str] = set()
    for name in header:
        if name in seen:
            raise UploadError(
                f"{filename}: two columns are called “{shorten(name)}”. Column names must "
                "be unique."
            )
        seen.add(name)
    if len(header) == 1 and _reads_like_a_sentence(header[0]):
        raise UploadError(
            f"{filename} does not look like a CSV file: its first line has no commas and "
            "reads like a sentence, not like column names. A CSV starts with a header row "
            "such as “Name,Occupation”."
        )


def _shortened_names(header: list[str], filename: str) -> list[str]:
    """Each column's name cut to MAX_TEXT_CHARS (`shorten`); names that only differ past it
    are refused, as two columns with one name are."""
    names = [shorten(name) for name in header]
    seen: set[str] = set()
    for name in names:
        if name in seen:
            raise UploadError(
                f"{filename}: two columns begin with the same {MAX_TEXT_CHARS} characters "
                f"(“{name}”). The lessons show the first {MAX_TEXT_CHARS} characters of a "
                "name: make them differ there."
            )
        seen.add(name)
    return names


def read_upload(raw: bytes, filename: str, *, max_bytes: int) -> pd.DataFrame:
    """The uploaded CSV as a DataFrame, or UploadError saying what is wrong with it.

    Refused: files over `max_bytes`, empty or header-only files, binary bytes (NUL bytes or
    undecodable text), JSON/HTML/prose instead of a table, broken quoting, rows with more or
    fewer fields than the header, nameless or repeated column names, and files whose columns
    all hold numbers (the lessons count people by category). Missing values stay NaN. A
    column's name longer than MAX_TEXT_CHARS is cut to it (`shorten`), and so is `filename`
    in every message.
    """
    filename = shorten(filename)
    if len(raw) > max_bytes:
        raise UploadError(
            f"{filename} is {_megabytes(len(raw))}; files can be at most "
            f"{_megabytes(max_bytes)}. Upload a smaller sample of your table."
        )
    if raw.strip() == b"" or raw.strip() == b"\xef\xbb\xbf":
        raise UploadError(f"{filename} is empty: there is no header row and no data.")
    text = _decode(raw, filename)
    if not text.strip():  # only Unicode spaces: no-break, ideographic, line separators
        raise UploadError(f"{filename} is empty: there is no header row and no data.")
    _check_not_other_format(text, filename)
    first_line = next(line for line in _lines(text) if line.strip())
    header, columns, _ = _columns(text, filename, _delimiter(first_line))
    kept = [(name, column) for name, column in zip(header, columns, strict=True)]
    frame = pd.DataFrame({name: column.series(name) for name, column in kept if not column.dropped})
    frame.attrs["dropped_columns"] = [name for name, column in kept if column.dropped]
    if frame.shape[1] == 0:
        raise UploadError(
            f"Every column of {filename} has more than {MAX_DISTINCT:,} different texts "
            "(IDs or free text): there is nothing the lessons can count."
        )
    del columns, kept
    if all(pd.api.types.is_numeric_dtype(frame[name]) for name in frame.columns):
        names = list(frame.columns)
        shown = ", ".join(names[:5]) + (", …" if len(names) > 5 else "")
        raise UploadError(
            f"Every column of {filename} holds numbers ({shown}). The lessons count people "
            "by category, so the file needs at least one column of words, such as "
            "Occupation or Country."
        )
    return frame


def return_freed_memory() -> bool:
    """Give memory that Python has freed back to the operating system, after an upload is
    read or dropped. Reading a file creates millions of small objects; once they are freed,
    glibc keeps their pages for reuse, so the server's resident memory stays ~35 MB higher
    per 7.6 MB file read even though nothing uses it. `malloc_trim(0)` returns those pages.
    True when it ran (Linux with glibc), False elsewhere (nothing to do)."""
    gc.collect()
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True


def _malloc_trim():
    global _TRIM
    if _TRIM is _UNSET:
        try:
            libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
            _TRIM = libc.malloc_trim
            _TRIM.argtypes = [ctypes.c_size_t]
        except (OSError, AttributeError):  # not glibc (macOS, musl): no such function
            _TRIM = None
    return _TRIM


_UNSET = object()
_TRIM = _UNSET


def missing_values(frame: pd.DataFrame) -> dict[str, int]:
    """Columns with missing values (NaN), and how many each has."""
    counts = frame.isna().sum()
    return {str(name): int(n) for name, n in counts.items() if n > 0}


@dataclass(frozen=True)
class CategoricalColumns:
    """Columns that can drive the histogram lessons, and why the others cannot."""

    usable: tuple[str, ...]
    unavailable: dict[str, str] = field(default_factory=dict)
    # Usable columns in which no two rows share a value (an ID or a name): a histogram of
    # them says nothing, so a lesson never picks one by default.
    all_unique: tuple[str, ...] = ()

    @property
    def default(self) -> str | None:
        """The first usable column that is not all-unique (else the first usable one)."""
        for name in self.usable:
            if name not in self.all_unique:
                return name
        return self.usable[0] if self.usable else None


def _is_text(column: pd.Series) -> bool:
    return not (
        pd.api.types.is_numeric_dtype(column)
        or pd.api.types.is_datetime64_any_dtype(column)
        or pd.api.types.is_bool_dtype(column)
    )


def categorical_columns(
    frame: pd.DataFrame, max_categories: int = MAX_CATEGORIES
) -> CategoricalColumns:
    """Text columns with 2 to `max_categories` distinct values, none longer than
    MAX_TEXT_CHARS; every other column is in `unavailable` with the reason (numbers, dates,
    too many categories, free text, one value, empty)."""
    usable: list[str] = []
    unavailable: dict[str, str] = {}
    all_unique: list[str] = []
    for name in frame.columns:
        column = frame[name]
        if pd.api.types.is_datetime64_any_dtype(column):
            unavailable[str(name)] = "dates, not categories"
        elif not _is_text(column):
            unavailable[str(name)] = "numbers, not categories"
        else:
            k = int(column.nunique(dropna=True))
            if k == 0:
                unavailable[str(name)] = "every value is missing"
            elif k == 1:
                unavailable[str(name)] = "only one value: nothing to compare"
            elif k > max_categories:
                unavailable[str(name)] = (
                    f"{k:,} categories; the histogram lessons take at most {max_categories}"
                )
            elif (longest := _longest_value(column)) > MAX_TEXT_CHARS:
                unavailable[str(name)] = (
                    f"a value of {longest:,} characters: free text, not categories (the "
                    f"lessons show categories of at most {MAX_TEXT_CHARS} characters)"
                )
            else:
                usable.append(str(name))
                if k == int(column.notna().sum()):
                    all_unique.append(str(name))
    for name in frame.attrs.get("dropped_columns", []):  # not kept by read_upload
        unavailable[str(name)] = (
            f"more than {MAX_DISTINCT:,} different texts (IDs or free text): not kept"
        )
    return CategoricalColumns(tuple(usable), unavailable, tuple(all_unique))


def _longest_value(column: pd.Series) -> int:
    """The length of the longest text in a text column (0 when every value is missing)."""
    values = column.cat.categories if isinstance(column.dtype, pd.CategoricalDtype) else column
    lengths = pd.Series(values, dtype=object).dropna().map(lambda value: len(str(value)))
    return int(lengths.max()) if len(lengths) else 0


@dataclass(frozen=True)
class Condition:
    """A yes/no question about one person: is `column` equal to `value`?"""

    column: str
    value: str
    count: int

    @property
    def label(self) -> str:
        return f"{self.column} = {self.value}"

    def mask(self, frame: pd.DataFrame) -> pd.Series:
        """True for the rows that answer yes (a missing value answers no)."""
        return (frame[self.column].astype(object) == self.value).fillna(False).astype(bool)


def yes_no_conditions(
    frame: pd.DataFrame, per_column: int = CONDITIONS_PER_COLUMN
) -> tuple[Condition, ...]:
    """'Column = value' questions for randomized response: for every text column with at
    least two values, its `per_column` most common values (most common first), leaving out
    values that only one row holds (a question about one person is not a survey) and
    values longer than MAX_TEXT_CHARS (free text, not a category to ask about)."""
    few: list[Condition] = []
    many: list[Condition] = []  # from columns with more than `per_column` values: last
    for name in frame.columns:
        column = frame[name]
        if not _is_text(column):
            continue
        counts = column.astype(object).value_counts(dropna=True)
        if len(counts) < 2:
            continue
        counts = counts[[len(str(value)) <= MAX_TEXT_CHARS for value in counts.index]]
        target = few
        if len(counts) > per_column:
            counts = counts[counts >= 2].head(per_column)
            target = many
        target.extend(Condition(str(name), str(value), int(n)) for value, n in counts.items())
    conditions = few + many
    return tuple(conditions)


def category_counts(frame: pd.DataFrame, column: str) -> pd.Series:
    """How many rows hold each value of `column` (most common first; missing not counted)."""
    counts = frame[column].astype(object).value_counts(dropna=True)
    counts.index = counts.index.map(str)
    return counts
