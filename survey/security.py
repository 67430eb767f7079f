"""Secrets for the class survey: join codes, admin keys, session hashes, signed tokens.

- A join code is short and easy to read aloud or type on a phone: 6 characters from an
  alphabet without look-alikes (no 0/O, 1/I/L), drawn with `secrets`. It only lets
  someone *answer*; guessing it gains nothing but a randomized vote.
- An admin key is `secrets.token_urlsafe(24)`: 24 random bytes = 192 bits (the issue asks
  for at least 128). The database keeps only its SHA-256 digest, compared in constant
  time, so a copy of the database does not let anyone close or reset a survey.
- A student's browser gets a token the server *issued*: 128 random bits and the server's
  HMAC of them, `NONCE.SIGNATURE`, signed with a key kept in the survey database (so every
  replica of the app knows it). A token the server did not sign is refused, so nobody can
  mint identities by typing random values. The database keeps only HMAC-SHA256(per-survey
  salt, token). That is all idempotency needs (the same session always maps to the same
  digest, so a double tap hits a unique constraint), and with a salt per survey the
  digests of one browser in two surveys cannot be linked.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets

JOIN_CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"  # 31 symbols, no 0 O 1 I L
JOIN_CODE_LENGTH = 6  # 31^6 ≈ 887 million codes
ADMIN_KEY_BYTES = 24  # 192 bits
SESSION_TOKEN_BYTES = 16  # 128 bits
SALT_BYTES = 16

_NOT_IN_ALPHABET = re.compile(f"[^{JOIN_CODE_ALPHABET}]")


def new_join_code(length: int = JOIN_CODE_LENGTH) -> str:
    """A random join code such as 'K7QX2M'."""
    return "".join(secrets.choice(JOIN_CODE_ALPHABET) for _ in range(length))


def normalize_join_code(text: str) -> str | None:
    """A typed code in canonical form ('k7q x2m' -> 'K7QX2M'), or None if it cannot be one.

    Spaces and dashes are dropped and letters upper-cased. 0, O, 1, I and L never occur
    in a code; a text containing them (or of the wrong length) is rejected."""
    if not isinstance(text, str):
        return None
    cleaned = re.sub(r"[\s\-]", "", text).upper()
    if len(cleaned) != JOIN_CODE_LENGTH or _NOT_IN_ALPHABET.search(cleaned):
        return None
    return cleaned


def new_admin_key() -> str:
    """A URL-safe admin key with 192 random bits (32 characters)."""
    return secrets.token_urlsafe(ADMIN_KEY_BYTES)


def new_session_token() -> str:
    """A random token that identifies one browser session to the server (never stored)."""
    return secrets.token_urlsafe(SESSION_TOKEN_BYTES)


STUDENT_TOKEN_PATTERN = re.compile(r"[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{22}")
SIGNING_KEY_BYTES = 32


def new_signing_key() -> str:
    """A random key (hex, 256 bits) for signing student tokens; kept in the database."""
    return secrets.token_hex(SIGNING_KEY_BYTES)


def _token_signature(signing_key: str, nonce: str) -> str:
    mac = hmac.new(signing_key.encode("ascii"), nonce.encode("ascii"), "sha256").digest()
    return base64.urlsafe_b64encode(mac[:16]).rstrip(b"=").decode("ascii")  # 22 characters


def issue_student_token(signing_key: str) -> str:
    """A new student token `NONCE.SIGNATURE`: 128 random bits and their HMAC under the
    server's signing key (45 URL-safe characters, fit for a cookie)."""
    nonce = secrets.token_urlsafe(SESSION_TOKEN_BYTES)
    return f"{nonce}.{_token_signature(signing_key, nonce)}"


def student_token_is_valid(signing_key: str, token: object) -> bool:
    """Whether `token` is one this server issued (its signature checks, in constant time)."""
    if not isinstance(token, str) or not STUDENT_TOKEN_PATTERN.fullmatch(token):
        return False
    nonce, signature = token.split(".")
    return hmac.compare_digest(_token_signature(signing_key, nonce), signature)


def new_salt() -> str:
    """A random per-survey salt (hex) for session digests."""
    return secrets.token_hex(SALT_BYTES)


def admin_key_digest(admin_key: str) -> str:
    """SHA-256 of the admin key, hex. The key has 192 random bits, so a plain hash is
    enough (no password-style stretching needed)."""
    return hashlib.sha256(admin_key.encode("utf-8")).hexdigest()


def admin_key_matches(admin_key: object, stored_digest: str) -> bool:
    """Whether `admin_key` hashes to `stored_digest`, compared in constant time."""
    if not isinstance(admin_key, str) or not admin_key:
        return False
    return hmac.compare_digest(admin_key_digest(admin_key), stored_digest)


def session_digest(salt: str, session_token: str) -> str:
    """HMAC-SHA256(salt, session token), hex: what the database stores for idempotency."""
    return hmac.new(salt.encode("ascii"), session_token.encode("utf-8"), "sha256").hexdigest()
