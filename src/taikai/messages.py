"""The registry of problem codes -> Japanese and English text, for the edges (CLI, web, API).

Core returns ``Problem(code, **params)``; each package registers its texts here with ``register``, from its texts
module (``texts.py`` or ``<topic>_texts.py``; core's own are ``taikai.texts``), and the edge calls
``text(problem, lang)``. Templates use Python ``str.format`` fields named after params.
"""

from __future__ import annotations

import os

from taikai.core.problems import Problem

_TEXTS: dict[str, dict[str, str]] = {}
LANGS = ("ja", "en")


def register(code: str, ja: str, en: str) -> None:
    _TEXTS[code] = {"ja": ja, "en": en}


def text(problem: Problem, lang: str) -> str:
    entry = _TEXTS.get(problem.code)
    if entry is None:
        return str(problem)
    template = entry.get(lang) or entry["en"]
    try:
        return template.format(**problem.params)
    except (KeyError, IndexError):
        return f"{template} {problem.params}"


def cli_language(explicit: str | None = None) -> str:
    """--lang wins; otherwise LC_ALL / LC_MESSAGES / LANG starting with ja means Japanese."""
    if explicit in LANGS:
        return explicit
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var)
        if value:
            return "ja" if value.lower().startswith("ja") else "en"
    return "en"
