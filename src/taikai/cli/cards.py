"""taikai cards import FILE... [--allow-older] | sync [--cdb-url URL]... [--ja-cdb-url URL] [--json-url URL]
[--lflist-url URL] [--allow-older]
taikai cards find NAME

``sync`` downloads from configured URLs (``TAIKAI_CARDS_CDB_URLS``, space-separated;
``TAIKAI_CARDS_JA_CDB_URL``; ``TAIKAI_CARDS_JSON_URL``; ``TAIKAI_BANLIST_URL``; the options win) and
imports what it got. The Japanese-locale ``cards.cdb`` brings the Japanese names, so Japanese deck
sheets read out of the box; names are kept per language, so no file erases another's.

A file older than the stored data changes nothing it would make older; ``--allow-older`` overwrites anyway.
Each import prints what it added, updated and skipped as older, what its file is as of, and every F/L entry
it changed; the record names the file as given (a downloaded file by its URL).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import TYPE_CHECKING

from taikai import messages
from taikai.cards.lflist import LflistError
from taikai.cards.sources import CardSourceError, Progress
from taikai.cli import texts  # noqa: F401  (registers the command line's texts)
from taikai.cli.parsing import action, command_group
from taikai.core.problems import Problem

if TYPE_CHECKING:
    from collections.abc import Callable

    from taikai.cards.models import ImportRecord
    from taikai.cli.parsing import Actions

DEFAULT_CDB_URLS = ("https://raw.githubusercontent.com/ProjectIgnis/BabelCDB/master/cards.cdb",)
# The Japanese-locale cards.cdb YGOPro distributions publish (names as printed on OCG cards).
DEFAULT_JA_CDB_URL = "https://raw.githubusercontent.com/mycard/ygopro-database/master/locales/ja-JP/cards.cdb"
DEFAULT_JSON_URL = "https://db.ygoprodeck.com/api/v7/cardinfo.php?misc=yes"
DEFAULT_LFLIST_URL = "https://raw.githubusercontent.com/ProjectIgnis/LFLists/master/OCG.lflist.conf"


SYNC_MAX_MB = 100  # one downloaded file: BabelCDB's cards.cdb is about 15 MB, the YGOPRODeck JSON about 40 MB
SYNC_DEADLINE = 600  # seconds for every download of one sync: 150 MB at 2 Mbit/s
ALLOW_OLDER_HELP = "let a file older than the stored data overwrite it / 保存済みより古いファイルでも上書きする"


def import_action(actions: Actions, help: str, run: Callable[[argparse.Namespace], int]) -> None:
    """``import FILE...``, of card data or of F/L lists: a file older than what is stored is kept out unless
    ``--allow-older``."""
    imp = action(actions, "import", help)
    imp.add_argument("files", nargs="+")
    imp.add_argument("--allow-older", action="store_true", help=ALLOW_OLDER_HELP)
    imp.set_defaults(func=run)


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    csub = command_group(sub, "cards", "card database: import, sync, find / カードデータベース")
    import_action(csub, "import cards.cdb (several merge by passcode), YGOPRODeck .json, lflist.conf", cmd_import)
    sync = action(csub, "sync", "download the card database and F/L list from the configured URLs")
    sync.add_argument("--cdb-url", action="append", help="a cards.cdb URL (repeatable; env TAIKAI_CARDS_CDB_URLS)")
    sync.add_argument("--ja-cdb-url", help="a Japanese-locale cards.cdb URL (env TAIKAI_CARDS_JA_CDB_URL; '' to skip)")
    sync.add_argument("--json-url", help="a YGOPRODeck cardinfo URL (env TAIKAI_CARDS_JSON_URL; '' to skip)")
    sync.add_argument("--lflist-url", help="an lflist.conf URL (env TAIKAI_BANLIST_URL; '' to skip)")
    sync.add_argument("--timeout", type=float, default=30.0, help="seconds one read may wait")
    sync.add_argument(
        "--max-mb",
        type=float,
        default=None,
        help=f"megabytes one downloaded file may have (env TAIKAI_CARDS_SYNC_MAX_MB; {SYNC_MAX_MB})",
    )
    sync.add_argument(
        "--deadline",
        type=float,
        default=None,
        help=f"seconds all downloads may take together (env TAIKAI_CARDS_SYNC_DEADLINE; {SYNC_DEADLINE})",
    )
    sync.add_argument("--allow-older", action="store_true", help=ALLOW_OLDER_HELP)
    sync.set_defaults(func=cmd_sync)
    find = action(csub, "find", "find cards by Japanese or English name (partial, full-width or half-width)")
    find.add_argument("name")
    find.add_argument("--limit", type=int, default=20)
    find.add_argument("--cards", action="append", default=[], metavar="CDB", help="search these files, not the DB")
    find.add_argument("--json", action="store_true")
    find.set_defaults(func=cmd_find)


def import_files(
    paths: list[Path],
    lang: str,
    languages: dict[str, str] | None = None,
    *,
    labels: dict[str, str] | None = None,
    allow_older: bool = False,
) -> int:
    """Import ``paths`` and print what each import did; ``labels`` names a file in the record (its URL)."""
    from taikai.server import setup

    setup()
    from taikai.cards import services
    from taikai.cards.progress import TerminalProgress
    from taikai.events.actors import System

    by = System("taikai cards")

    missing = [p for p in paths if not p.is_file()]
    if missing:
        sys.stderr.write(f"taikai cards import: {missing[0]}: no such file\n")
        return 2
    lflists = [p for p in paths if p.suffix.lower() == ".conf"]
    card_files = [p for p in paths if p not in lflists]
    labels = labels or {}
    try:
        records = (
            services.import_card_files(
                card_files,
                actor=by,
                progress=TerminalProgress("cards"),
                languages=languages,
                labels=labels,
                allow_older=allow_older,
            )
            if card_files
            else []
        )
        records += [
            services.import_lflist_file(p, actor=by, label=labels.get(str(p)), allow_older=allow_older) for p in lflists
        ]
    except (CardSourceError, LflistError, UnicodeDecodeError) as exc:
        sys.stderr.write(f"taikai cards import: {exc}\n")
        return 2
    for record in records:
        print_record(record, lang)
    return 0


def print_record(record: ImportRecord, lang: str) -> None:
    """The summary line (with what a card file is as of), each list changed or left alone with its
    entries, and the lines an lflist import skipped (stderr)."""
    from taikai.cards import report

    notes = report.notes(record, lang)
    line = report.summary_line(record, lang)
    if record.kind == record.Kind.CARDS and notes:
        line, notes = f"{line} — {notes[0].text}", notes[1:]
    print(line)
    for note in notes:
        print(f"  {note.text}")
        for item in note.items:
            print(f"    {item}")
    print_warnings(record, lang)


def print_warnings(record: object, lang: str) -> None:
    """The lines an lflist import skipped, one stderr line each, named by file and line."""
    from taikai.cards.texts import describe

    summary = getattr(record, "summary", {}) or {}
    for raw in summary.get("warnings", []):
        params = {k: v for k, v in raw.items() if k != "code"}
        sys.stderr.write(f"{getattr(record, 'source', '')}: {describe(Problem(raw['code'], **params), lang)}\n")


def cmd_import(args: argparse.Namespace) -> int:
    return import_files([Path(f) for f in args.files], messages.cli_language(args.lang), allow_older=args.allow_older)


def _urls(args: argparse.Namespace) -> tuple[list[str], str, str, str]:
    cdbs = args.cdb_url
    if cdbs is None:
        env = os.environ.get("TAIKAI_CARDS_CDB_URLS")
        cdbs = env.split() if env is not None else list(DEFAULT_CDB_URLS)
    cdbs = [u for u in cdbs if u]
    ja = args.ja_cdb_url
    if ja is None:
        ja = os.environ.get("TAIKAI_CARDS_JA_CDB_URL", DEFAULT_JA_CDB_URL)
    json_url = args.json_url if args.json_url is not None else os.environ.get("TAIKAI_CARDS_JSON_URL", DEFAULT_JSON_URL)
    lflist = (
        args.lflist_url if args.lflist_url is not None else os.environ.get("TAIKAI_BANLIST_URL", DEFAULT_LFLIST_URL)
    )
    return cdbs, ja, json_url, lflist


class SyncLimit(Exception):
    """A download over its size cap or past the sync's deadline; nothing is imported."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.code)
        self.problem = problem


def download(
    url: str,
    target: Path,
    timeout: float,
    progress: Progress | None = None,
    *,
    max_bytes: int = SYNC_MAX_MB * 1_000_000,
    deadline: float = float("inf"),
) -> None:
    """``url`` to ``target``, telling ``progress`` (bytes done, bytes expected) as it goes; at most
    ``max_bytes`` (a larger Content-Length is refused before a byte is read), and stopped at ``deadline``
    (a ``time.monotonic()`` instant: each read waits at most until then)."""
    limit = Problem("sync-too-large", url=url, limit=round(max_bytes / 1_000_000))
    late = Problem("sync-deadline", url=url, seconds=0)
    request = urllib.request.Request(url, headers={"User-Agent": "taikai"})
    with urllib.request.urlopen(request, timeout=_wait(timeout, deadline, late)) as response, target.open("wb") as out:
        total = int(response.headers.get("Content-Length") or 0)
        if total > max_bytes:
            raise SyncLimit(limit)
        done = 0
        while True:
            _set_timeout(response, _wait(timeout, deadline, late))
            try:
                chunk = response.read1(256 * 1024)  # what one receive brings: the deadline is checked between
            except TimeoutError:
                if time.monotonic() >= deadline:
                    raise SyncLimit(late) from None
                raise
            if not chunk:
                break
            done += len(chunk)
            if done > max_bytes:  # a server that sent no length, or lied about it
                raise SyncLimit(limit)
            out.write(chunk)
            if progress and total:
                progress(min(done, total), total)


def _wait(timeout: float, deadline: float, late: Problem) -> float:
    left = deadline - time.monotonic()
    if left <= 0:
        raise SyncLimit(late)
    return min(timeout, left)


def _set_timeout(response: object, seconds: float) -> None:
    """The socket's timeout for the next read (urllib sets it once, at connect)."""
    sock = getattr(getattr(getattr(response, "fp", None), "raw", None), "_sock", None)
    if sock is not None:
        sock.settimeout(seconds)


def _number(given: float | None, env: str, default: float) -> float:
    raw = os.environ.get(env, "").strip() if given is None else str(given)
    try:
        value = float(raw) if raw else default
    except ValueError:
        raise ValueError(f"{env}: expected a number, got {raw!r}") from None
    if not value > 0:
        raise ValueError(f"{env}: must be more than 0, got {raw!r}")
    return value


def cmd_sync(args: argparse.Namespace) -> int:
    from taikai.cards.progress import TerminalProgress

    lang = messages.cli_language(args.lang)
    cdbs, ja_url, json_url, lflist = _urls(args)
    wanted = [(u, f"cards-{i}.cdb") for i, u in enumerate(cdbs)]
    wanted += [(ja_url, "cards-ja.cdb")] if ja_url else []
    wanted += [(json_url, "cardinfo.json")] if json_url else []
    wanted += [(lflist, "lflist.conf")] if lflist else []
    try:
        max_mb = _number(args.max_mb, "TAIKAI_CARDS_SYNC_MAX_MB", SYNC_MAX_MB)
        seconds = _number(args.deadline, "TAIKAI_CARDS_SYNC_DEADLINE", SYNC_DEADLINE)
    except ValueError as exc:
        sys.stderr.write(f"taikai cards sync: {exc}\n")
        return 2
    deadline = time.monotonic() + seconds
    with tempfile.TemporaryDirectory(prefix="taikai-sync-") as tmp:
        paths = []
        for url, name in wanted:
            target = Path(tmp) / name
            try:
                download(
                    url,
                    target,
                    args.timeout,
                    TerminalProgress(name),
                    max_bytes=int(max_mb * 1_000_000),
                    deadline=deadline,
                )
            except SyncLimit as exc:  # the temporary folder, and what was downloaded so far, is removed
                problem = exc.problem
                if problem.code == "sync-deadline":
                    problem = Problem(problem.code, url=url, seconds=round(seconds))
                sys.stderr.write(messages.text(problem, lang) + "\n")
                return 2
            except (urllib.error.URLError, OSError, ValueError) as exc:
                reason = getattr(exc, "reason", None) or exc
                sys.stderr.write(messages.text(Problem("offline", url=url, reason=reason), lang) + "\n")
                return 2
            paths.append(target)
        # The record names each file by the URL it came from, not the temporary path.
        labels = {str(Path(tmp) / name): url for url, name in wanted}
        languages = {str(Path(tmp) / "cards-ja.cdb"): "ja"}
        return import_files(paths, lang, languages, labels=labels, allow_older=args.allow_older)


def cmd_find(args: argparse.Namespace) -> int:
    lang = messages.cli_language(args.lang)
    if args.cards:
        from taikai.cards.index import MemoryCardIndex

        try:
            index = MemoryCardIndex.from_cdb(args.cards)
        except CardSourceError as exc:
            sys.stderr.write(f"taikai cards find: {exc}\n")
            return 2
        found = index.find(args.name, args.limit)
    else:
        from taikai.server import setup

        setup()
        from taikai.cards.index import DbCardIndex

        found = DbCardIndex().find(args.name, args.limit)
    if args.json:
        rows = [{"card": c.passcode, "alias": c.alias, "name_ja": c.name_ja, "name_en": c.name_en} for c in found]
        print(json.dumps(rows, ensure_ascii=False))
    elif not found:
        print(messages.text(Problem("no-card-found", name=args.name), lang))
    for card in found if not args.json else []:
        alias = f"\t(= {card.alias})" if card.alias else ""
        print(f"{card.passcode}\t{card.name_ja}\t{card.name_en}{alias}")
    return 0 if found else 1
