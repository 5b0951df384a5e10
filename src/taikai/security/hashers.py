"""The hashers: a bearer token's one-way hash, and players' PINs.

A token (a player's personal link, an API token) is long and random, so one SHA-256 is what is stored and
looked up: the row holds no credential, and a look-up is one index probe.

The hasher for players' PINs: Argon2id at OWASP's minimum (19 MiB, 2 passes, 1 lane), about 30 ms.

Django's default Argon2 settings (100 MiB, 8 lanes) cost about 300 ms of CPU on both cores of a venue laptop
per hash: five PIN changes in a row stalled every result report for a second (issue 16, under attack). A PIN
is a handful of digits, so what protects it is the online limit (taikai.security.throttle: per ID and per
address), exports without secrets and a database file only its owner can read, not the hash's cost: a slow
hash would not save a 6-digit PIN from a copied database, and it does cost the venue. Organizers' passwords
keep Django's default. PINs hashed before keep working (their own hasher is still listed).
"""

from __future__ import annotations

import hashlib

from django.contrib.auth.hashers import Argon2PasswordHasher


def hash_token(token: str) -> str:
    """What is stored of a bearer token, and what a presented one is looked up by."""
    return hashlib.sha256(token.encode()).hexdigest()


class PinHasher(Argon2PasswordHasher):
    algorithm = "taikai_pin_argon2"
    time_cost = 2
    memory_cost = 19456  # KiB
    parallelism = 1
