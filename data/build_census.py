"""Build data/census.csv.gz from the raw UCI Adult extract.

The census columns are copied unchanged from the 1994 US Census extract (UCI
"Adult", Kohavi & Becker, CC BY 4.0). Four identifying columns are *invented* so
that the app can demonstrate linkage attacks and k-anonymity: Name, DOB, SSN and
Zip. They are drawn from one seeded random generator and belong to nobody.

Run from the repository root:

    .venv/bin/python data/build_census.py [--raw PATH] [--out PATH]

The output is byte-for-byte reproducible: same raw file + same script = same
bytes (gzip header with mtime=0 and no file name, "\\n" line endings, UTF-8).
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import io
import sys
from pathlib import Path

import numpy as np
import pandas as pd

# --------------------------------------------------------------------------- #
# Constants
# --------------------------------------------------------------------------- #

SEED = 19940401
"""Seed of the single numpy Generator that draws every synthetic column."""

REFERENCE_DATE = "1994-04-01"
"""Census reference date: each person's age on this day equals their real Age."""

RAW_SHA256 = "5b00264637dbfec36bdeaab5676b0b309ff9eb788d63554ca0a249491c86603d"
RAW_ROWS = 32_561

REPO = Path(__file__).resolve().parents[1]
DEFAULT_RAW = Path(__file__).resolve().parents[2] / "shared" / "data" / "adult.data"
DEFAULT_OUT = REPO / "data" / "census.csv.gz"

# Raw columns (adult.names order) -> output names.
RAW_COLUMNS = {
    "age": "Age",
    "workclass": "Workclass",
    "fnlwgt": "Fnlwgt",
    "education": "Education",
    "education-num": "EducationNum",
    "marital-status": "MaritalStatus",
    "occupation": "Occupation",
    "relationship": "Relationship",
    "race": "Race",
    "sex": "Sex",
    "capital-gain": "CapitalGain",
    "capital-loss": "CapitalLoss",
    "hours-per-week": "HoursPerWeek",
    "native-country": "NativeCountry",
    "income": "Income",
}

SYNTHETIC_COLUMNS = ["Name", "DOB", "SSN", "Zip"]
OUTPUT_COLUMNS = [
    *SYNTHETIC_COLUMNS,
    "Sex",
    "Age",
    "Race",
    "MaritalStatus",
    "Relationship",
    "Education",
    "EducationNum",
    "Occupation",
    "Workclass",
    "HoursPerWeek",
    "CapitalGain",
    "CapitalLoss",
    "NativeCountry",
    "Income",
    "Fnlwgt",
]
INT_COLUMNS = ["Age", "EducationNum", "HoursPerWeek", "CapitalGain", "CapitalLoss", "Fnlwgt"]

# Zip design: a pool of invented ZIP codes grouped under 3-digit prefixes (so
# that generalising "02139" -> "021**" merges several codes), with Zipf-like
# population sizes (rank r gets weight 1 / r**ZIP_ZIPF_EXPONENT).
N_ZIP_PREFIXES = 40
N_LEADING_ZERO_PREFIXES = 4  # prefixes 010-099, so some codes start with "0"
N_ZIPS = 300
ZIP_ZIPF_EXPONENT = 1.0

# Middle initials used to make colliding names unique ("John A. Smith").
MIDDLE_INITIALS = list("ABCDEFGHJKLMNPRSTW")
MAX_NAME_ROUNDS = 50


def _words(text: str) -> list[str]:
    return text.split()


# Common US first names (roughly in order of popularity for people born
# 1900-1977), one list per sex, no name in both lists.
MALE_FIRST_NAMES = _words("""
James John Robert William Richard Charles Michael David Joseph Thomas Donald
George Kenneth Paul Edward Ronald Larry Gary Frank Raymond Steven Jerry Walter
Harold Dennis Henry Arthur Carl Roger Daniel Mark Jack Ralph Albert Eugene
Lawrence Harry Fred Gerald Howard Roy Earl Louis Joe Wayne Billy Bobby Willie
Stephen Timothy Anthony Ernest Clarence Norman Jimmy Douglas Bruce Alan Russell
Peter Samuel Philip Phillip Leonard Stanley Francis Keith Jeffrey Terry Johnny
Scott Brian Gregory Kevin Ronnie Roland Alfred Herbert Marvin Melvin Leroy
Lloyd Glenn Curtis Allen Vernon Gordon Dale Clifford Leon Eddie Frederick Floyd
Danny Randy Rodney Ricky Kenny Calvin Chester Cecil Clyde Herman Lester Milton
Elmer Wallace Harvey Arnold Warren Ray Jim Tom Bill Bob Don Sam Ben Max Hugh
Dean Glen Lewis Tony Victor Martin Jesse Manuel Jose Juan Carlos Luis Jorge
Pedro Ramon Mario Ruben Rafael Roberto Ricardo Francisco Miguel Antonio Raul
Hector Oscar Jesus Alfredo Alberto Armando Enrique Eduardo Fernando Julio
Salvador Sergio Andrew Christopher Matthew Jason Eric Todd Craig Troy Shawn
Sean Chad Brad Bradley Darrell Darryl Derrick Dwayne Dwight Duane Jerome
Reginald Maurice Tyrone Andre Marcus Nathan Nathaniel Jonathan Benjamin Jeremy
Joshua Aaron Adam Justin Kyle Travis Wesley Neil Kurt Karl Kent Kirk Lance
Barry Bernard Clinton Clayton Everett Gilbert Grant Guy Ivan Jay Jon Ken Mike
Steve Tim Dan Greg Jeff Rick Rex Nelson Mitchell Morris Otis Perry Ross Seth
Theodore Virgil Wade Willard Emmett Homer Irving Luther Marshall Stuart Wilbur
""")

FEMALE_FIRST_NAMES = _words("""
Mary Patricia Linda Barbara Elizabeth Jennifer Maria Susan Margaret Dorothy
Lisa Nancy Karen Betty Helen Sandra Donna Carol Ruth Sharon Michelle Laura
Sarah Kimberly Deborah Jessica Shirley Cynthia Angela Melissa Brenda Amy Anna
Rebecca Virginia Kathleen Pamela Martha Debra Amanda Stephanie Carolyn
Christine Marie Janet Catherine Frances Ann Joyce Diane Alice Julie Heather
Teresa Doris Gloria Evelyn Jean Cheryl Mildred Katherine Joan Judith Rose
Janice Nicole Judy Christina Kathy Theresa Beverly Denise Tammy Irene Jane
Lori Rachel Marilyn Andrea Kathryn Louise Sara Anne Jacqueline Wanda Bonnie
Julia Ruby Lois Tina Phyllis Norma Paula Diana Annie Lillian Emily Peggy
Crystal Gladys Rita Dawn Connie Florence Edna Tiffany Carmen Rosa Cindy Grace
Wendy Victoria Edith Sherry Sylvia Josephine Thelma Sheila Ethel Ellen Elaine
Marjorie Carrie Charlotte Monica Esther Pauline Emma Juanita Anita Rhonda
Hazel Amber Eva Debbie April Clara Lucille Joanne Eleanor Valerie Danielle
Megan Alicia Suzanne Michele Gail Bertha Darlene Veronica Jill Erin Geraldine
Lauren Cathy Joann Lorraine Sally Regina Erica Beatrice Dolores Bernice
Audrey Yvonne Annette June Samantha Stacy Ana Renee Ida Vivian Roberta Holly
Melanie Loretta Yolanda Jeanette Laurie Katie Kristen Vanessa Alma Sue Elsie
Beth Jeanne Vicki Carla Rosemary Eileen Terri Gertrude Lucy Tonya Ella Stacey
Wilma Gina Kristin Natalie Agnes Vera Charlene Bessie Delores Melinda Pearl
Arlene Maureen Colleen Allison Tamara Joy Georgia Constance Lillie Claudia
Marcia Tanya Nellie Minnie Marlene Heidi Glenda Lydia Viola Stella Caroline
Dora Vickie Mattie Maxine Irma Mabel Marsha Myrtle Lena Deanna Patsy Hilda
Gwendolyn Nora Margie Nina Leah Penny Priscilla Naomi Carole Olga Dianne
Leona Felicia Sonia Miriam Velma Becky Violet Toni Daisy Ramona Katrina Claire
""")

# Common US surnames (roughly in order of frequency).
SURNAMES = _words("""
Smith Johnson Williams Brown Jones Miller Davis Garcia Rodriguez Wilson
Martinez Anderson Taylor Thomas Hernandez Moore Martin Jackson Thompson White
Lopez Lee Gonzalez Harris Clark Lewis Robinson Walker Perez Hall Young Allen
Sanchez Wright King Scott Green Baker Adams Nelson Hill Ramirez Campbell
Mitchell Roberts Carter Phillips Evans Turner Torres Parker Collins Edwards
Stewart Flores Morris Nguyen Murphy Rivera Cook Rogers Morgan Peterson Cooper
Reed Bailey Bell Gomez Kelly Howard Ward Cox Diaz Richardson Wood Watson Brooks
Bennett Gray James Reyes Cruz Hughes Price Myers Long Foster Sanders Ross
Morales Powell Sullivan Russell Ortiz Jenkins Gutierrez Perry Butler Barnes
Fisher Henderson Coleman Simmons Patterson Jordan Reynolds Hamilton Graham Kim
Gonzales Alexander Ramos Wallace Griffin West Cole Hayes Chavez Gibson Bryant
Ellis Stevens Murray Ford Marshall Owens McDonald Harrison Ruiz Kennedy Wells
Alvarez Woods Mendoza Castillo Olson Webb Washington Tucker Freeman Burns
Henry Vasquez Snyder Simpson Crawford Jimenez Porter Mason Shaw Gordon Wagner
Hunter Romero Hicks Dixon Hunt Palmer Robertson Black Holmes Stone Meyer Boyd
Mills Warren Fox Rose Rice Moreno Schmidt Patel Ferguson Nichols Herrera
Medina Ryan Fernandez Weaver Daniels Stephens Gardner Payne Kelley Dunn Pierce
Arnold Tran Spencer Peters Hawkins Grant Hansen Castro Hoffman Hart Elliott
Cunningham Knight Bradley Carroll Hudson Duncan Armstrong Berry Andrews
Johnston Ray Lane Riley Carpenter Perkins Aguilar Silva Richards Willis
Matthews Chapman Lawrence Garza Vargas Watkins Wheeler Larson Carlson Harper
George Greene Burke Guzman Morrison Munoz Jacobs O'Brien Lawson Franklin Lynch
Bishop Carr Salazar Austin Mendez Gilbert Jensen Williamson Montgomery Harvey
Oliver Howell Dean Hanson Weber Garrett Sims Burton Fuller Soto McCoy Welch
Chen Schultz Walters Reid Fields Walsh Little Fowler Bowman Davidson May Day
Schneider Newman Brewer Lucas Holland Wong Banks Santos Curtis Pearson Delgado
Valdez Pena Rios Douglas Sandoval Barrett Hopkins Keller Guerrero Stanley
Bates Alvarado Beck Ortega Wade Estrada Contreras Barnett Caldwell Santiago
Lambert Powers Chambers Nunez Craig Leonard Lowe Rhodes Byrd Gregory Shelton
Frazier Becker Maldonado Fleming Vega Sutton Cohen Jennings Parks McDaniel
Watts Barker Norris Vaughn Vazquez Holt Schwartz Steele Benson Neal Dominguez
Horton Terry Wolfe Hale Lyons Graves Haynes Miles Park Warner Padilla Bush
Thornton McCarthy Mann Zimmerman Erickson Fletcher McKinney Page Dawson Joseph
Marquez Reeves Klein Espinoza Baldwin Moran Love Robbins Higgins Ball Cortez
Griffith Bowen Sharp Cummings Ramsey Hardy Swanson Barber Acosta Luna Chandler
Blair Daniel Cross Simon Dennis O'Connor Quinn Gross Navarro Moss Fitzgerald
Doyle McLaughlin Rojas Rodgers Stevenson Singh Yang Figueroa Harmon Newton
Paul Manning Garner McGee Reese Francis Burgess Adkins Goodman Curry Brady
Christensen Potter Walton Goodwin Mullins Molina Webster Fischer Campos Avila
Sherman Todd Chang Blake Malone Wolf Hodges Juarez Gill Farmer Hines Gallagher
Duran Hubbard Cannon Miranda Wang Saunders Tate Mack Hammond Carrillo Townsend
Wise Ingram Barton Mejia Ayala Schroeder Hampton Rowe Parsons Frank Waters
Strickland Osborne Maxwell Chan Norman Harrington Patton Logan Bowers Mueller
Glover Floyd Hartman Buchanan Cobb French Kramer McCormick Clarke Tyler Gibbs
Moody Conner Sparks McGuire Leon Bauer Norton Pope Flynn Hogan Robles Salinas
Yates Lindsey Lloyd Marsh McBride Owen Solis Pham Lang Pratt Lara Brock
Ballard Trujillo Shaffer Drake Roman Aguirre Morton Stokes Lamb Pacheco
Cochran Shepherd Cain Burnett Hess Cervantes Olsen Briggs Ochoa Cabrera
Velasquez Montoya Roth Meyers Cardenas Fuentes Weiss Hoover Wilkins Nicholson
Underwood Short Carson Morrow Holloway Summers Bryan Petersen McKenzie Serrano
Wilcox Carey Clayton Poole Calderon Gallegos Greer Rivas Guerra Decker Collier
""")


# --------------------------------------------------------------------------- #
# Raw data
# --------------------------------------------------------------------------- #


def sha256_of(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def read_raw(raw: Path) -> pd.DataFrame:
    """Read and verify adult.data; return census columns with output names.

    Values are kept exactly (leading spaces stripped), "?" becomes missing, and
    the row order of the raw file is kept.
    """
    raw = Path(raw)
    if not raw.is_file():
        sys.exit(
            f"error: raw file not found: {raw}\n"
            "Get it from ../shared/data/ (see data/README.md) or pass --raw PATH."
        )
    digest = sha256_of(raw)
    if digest != RAW_SHA256:
        sys.exit(
            f"error: {raw} has sha256 {digest},\n"
            f"       expected {RAW_SHA256}.\n"
            "This is not the UCI Adult adult.data this script was written for; "
            "refusing to build."
        )
    df = pd.read_csv(
        raw,
        header=None,
        names=list(RAW_COLUMNS),
        dtype=str,
        skipinitialspace=True,
        keep_default_na=False,
        na_values=["?"],
        skip_blank_lines=True,
    )
    if len(df) != RAW_ROWS:
        sys.exit(f"error: expected {RAW_ROWS} rows in {raw}, got {len(df)}")
    df = df.rename(columns=RAW_COLUMNS)
    for col in INT_COLUMNS:
        df[col] = df[col].astype("int64")
    return df


# --------------------------------------------------------------------------- #
# Synthetic columns
# --------------------------------------------------------------------------- #


def _zipf_weights(n: int, offset: float) -> np.ndarray:
    w = 1.0 / (np.arange(n) + offset)
    return w / w.sum()


def make_names(sex: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Unique "First Last" names; first names match sex.

    Duplicates (later rows in file order) first get a middle initial
    ("First M. Last"); if that still collides the initial is redrawn, and
    after a few rounds the whole name is redrawn.
    """
    n = len(sex)
    male = sex == "Male"
    male_first = np.array(MALE_FIRST_NAMES, dtype=object)
    female_first = np.array(FEMALE_FIRST_NAMES, dtype=object)
    surnames = np.array(SURNAMES, dtype=object)
    p_male = _zipf_weights(len(male_first), 15)
    p_female = _zipf_weights(len(female_first), 15)
    p_last = _zipf_weights(len(surnames), 25)

    first = np.empty(n, dtype=object)
    last = np.empty(n, dtype=object)
    middle = np.full(n, "", dtype=object)

    def draw(idx: np.ndarray) -> None:
        m = idx[male[idx]]
        f = idx[~male[idx]]
        first[m] = rng.choice(male_first, size=len(m), p=p_male)
        first[f] = rng.choice(female_first, size=len(f), p=p_female)
        last[idx] = rng.choice(surnames, size=len(idx), p=p_last)
        middle[idx] = ""

    def full(idx: np.ndarray) -> np.ndarray:
        mid = np.where(middle[idx] == "", "", middle[idx] + ". ")
        return first[idx] + " " + mid + last[idx]

    everyone = np.arange(n)
    draw(everyone)
    names = full(everyone)
    for rounds in range(MAX_NAME_ROUNDS):
        dup = np.flatnonzero(pd.Series(names).duplicated(keep="first").to_numpy())
        if len(dup) == 0:
            return names.astype(str)
        if rounds < 5:
            middle[dup] = rng.choice(MIDDLE_INITIALS, size=len(dup))
        else:
            draw(dup)
        names[dup] = full(dup)
    raise RuntimeError("could not make names unique")  # pragma: no cover


def make_dobs(age: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Dates of birth, uniform over the days that make one exactly `age` on the
    reference date.

    Someone aged a on the reference date (Y-04-01) was born between
    (Y-a-1)-04-02 and (Y-a)-04-01 inclusive.
    """
    ref_year, ref_month, ref_day = (int(part) for part in REFERENCE_DATE.split("-"))
    birth_year = (ref_year - age - 1970).astype("datetime64[Y]")

    def anniversary(year: np.ndarray) -> np.ndarray:  # ref month/day in `year`
        month = year.astype("datetime64[M]") + (ref_month - 1)
        return month.astype("datetime64[D]") + (ref_day - 1)

    latest = anniversary(birth_year)
    earliest = anniversary(birth_year - 1) + 1
    span = (latest - earliest).astype(np.int64) + 1  # 365 or 366 days
    dob = earliest + rng.integers(0, span)
    # Check: the age on the reference date is exactly the real Age.
    dob_year = dob.astype("datetime64[Y]")
    birthday_later_in_year = dob > anniversary(dob_year)
    age_again = ref_year - 1970 - dob_year.astype(np.int64) - birthday_later_in_year
    if not (age_again == age).all():
        raise RuntimeError("DOB inconsistent with Age")  # pragma: no cover
    return dob


def make_ssns(n: int, rng: np.random.Generator) -> np.ndarray:
    """Unique AAA-GG-SSSS numbers with area 900-999 (never issued as SSNs)."""
    # area 900-999 (100), group 01-99 (99), serial 0001-9999 (9999)
    codes = rng.choice(100 * 99 * 9999, size=n, replace=False)
    area, rest = np.divmod(codes, 99 * 9999)
    group, serial = np.divmod(rest, 9999)
    area, group, serial = area + 900, group + 1, serial + 1
    return np.array(
        [f"{a:03d}-{g:02d}-{s:04d}" for a, g, s in zip(area, group, serial, strict=True)],
        dtype=object,
    )


def make_zip_pool(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Invented 5-digit ZIP codes and their Zipf-like selection probabilities."""
    low = rng.choice(np.arange(10, 100), N_LEADING_ZERO_PREFIXES, replace=False)
    high = rng.choice(np.arange(100, 1000), N_ZIP_PREFIXES - N_LEADING_ZERO_PREFIXES, replace=False)
    prefixes = np.sort(np.concatenate([low, high]))
    per_prefix = 1 + rng.multinomial(
        N_ZIPS - N_ZIP_PREFIXES, np.full(N_ZIP_PREFIXES, 1 / N_ZIP_PREFIXES)
    )
    codes = []
    for prefix, k in zip(prefixes, per_prefix, strict=True):
        suffixes = np.sort(rng.choice(np.arange(1, 100), k, replace=False))
        codes.extend(f"{prefix:03d}{s:02d}" for s in suffixes)
    pool = np.array(codes, dtype=object)
    weights = 1.0 / np.arange(1, N_ZIPS + 1) ** ZIP_ZIPF_EXPONENT
    weights = weights[rng.permutation(N_ZIPS)]  # which code gets which rank
    return pool, weights / weights.sum()


def make_zips(n: int, rng: np.random.Generator) -> np.ndarray:
    pool, p = make_zip_pool(rng)
    return pool[rng.choice(len(pool), size=n, p=p)]


# --------------------------------------------------------------------------- #
# Build and write
# --------------------------------------------------------------------------- #


def build(raw: Path = DEFAULT_RAW) -> pd.DataFrame:
    """Return the full output table (census + synthetic columns), in file order."""
    census = read_raw(raw)
    rng = np.random.default_rng(SEED)
    n = len(census)
    census["Name"] = make_names(census["Sex"].to_numpy(dtype=object), rng)
    census["DOB"] = pd.Series(make_dobs(census["Age"].to_numpy(), rng)).astype(str)
    census["SSN"] = make_ssns(n, rng)
    census["Zip"] = make_zips(n, rng)
    return census[OUTPUT_COLUMNS]


def to_gzip_bytes(df: pd.DataFrame) -> bytes:
    """CSV (UTF-8, "\\n", missing = empty) in a reproducible gzip stream."""
    text = df.to_csv(index=False, lineterminator="\n", na_rep="")
    out = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=out, mtime=0, compresslevel=9) as gz:
        gz.write(text.encode("utf-8"))
    return out.getvalue()


def uniqueness(df: pd.DataFrame) -> dict[str, float]:
    """Share of people unique on some quasi-identifier combinations."""
    dob = pd.to_datetime(df["DOB"])
    frame = df.assign(BirthYear=dob.dt.year)
    combos = {
        "Zip, DOB, Sex": ["Zip", "DOB", "Sex"],
        "Zip, birth year, Sex": ["Zip", "BirthYear", "Sex"],
        "Zip": ["Zip"],
    }
    return {
        label: float((~frame.duplicated(cols, keep=False)).mean()) for label, cols in combos.items()
    }


def main(argv: list[str] | None = None) -> Path:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--raw", type=Path, default=DEFAULT_RAW, help="path to adult.data")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output .csv.gz")
    parser.add_argument("--quiet", action="store_true", help="print nothing")
    args = parser.parse_args(argv)

    df = build(args.raw)
    data = to_gzip_bytes(df)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(data)
    if not args.quiet:
        print(f"wrote {args.out} ({len(df)} rows, {len(data):,} bytes)")
        print(f"sha256 {hashlib.sha256(data).hexdigest()}")
        for label, share in uniqueness(df).items():
            print(f"unique on ({label}): {share:.1%}")
    return args.out


if __name__ == "__main__":
    main()
