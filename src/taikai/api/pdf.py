"""The organizer's report as a file: HTML from the same template, PDF through headless Chromium.

Chromium is what the browser tests already need (Debian's `chromium`, installed by .ci/run); it prints
offline from a local file, with no downloads, fonts from the system (fonts-noto-cjk for Japanese).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from django.template.loader import render_to_string
from django.utils import translation

from taikai.api import report as report_data
from taikai.events.models import Event

CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


class PdfError(Exception):
    pass


def report_html(event: Event, language: str = "ja") -> str:
    with translation.override(language):
        return render_to_string("api/report.html", {**report_data.context(event), "LANGUAGE_CODE": language})


def find_chromium() -> str:
    explicit = os.environ.get("TAIKAI_CHROMIUM")
    if explicit:
        return explicit
    for name in CANDIDATES:
        found = shutil.which(name)
        if found:
            return found
    raise PdfError("Chromium is needed to print a PDF (apt-get install chromium)")


def html_to_pdf(html: str, out: Path, timeout: float = 60) -> None:
    with tempfile.TemporaryDirectory(prefix="taikai-report-") as tmp:
        page = Path(tmp) / "report.html"
        page.write_text(html, "utf-8")
        command = [
            find_chromium(),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--no-pdf-header-footer",
            f"--user-data-dir={Path(tmp) / 'profile'}",
            f"--print-to-pdf={out.resolve()}",
            page.as_uri(),
        ]
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)
        if done.returncode != 0 or not out.exists() or out.stat().st_size == 0:
            raise PdfError(f"Chromium could not print the report: {done.stderr.strip()[-500:]}")
