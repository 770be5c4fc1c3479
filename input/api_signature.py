"""Sample: check an API request signature."""

import hashlib
import hmac

MIN_KEY_LENGTH = 16


def verify_signature(secret_key: str, payload: bytes, header_hash: str) -> bool:
    """Return True when ``header_hash`` is the HMAC-SHA256 of ``payload`` under ``secret_key``."""
    if len(secret_key) < MIN_KEY_LENGTH:
        raise ValueError(f"secret key must be at least {MIN_KEY_LENGTH} characters")
    expected = hmac.new(secret_key.encode("utf-8"), payload, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, header_hash.lower())
