"""`taikai cards import|sync|find` and `taikai banlist import|list|show`."""

from __future__ import annotations

import functools
import http.server
import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from taikai.cards.models import Card
from taikai.cli import main
from tests.cards.test_sources import CARDINFO
from tests.factories import CDB_EN, CDB_JA, DATA, LFLIST_JA, slice_cdb

PASSCODES = [14558127, 14558128, 46986414, 36996508, 84013237, 23434538, 10045474]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main([*args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def small_pair(tmp_path: Path) -> list[Path]:
    return [slice_cdb(CDB_EN, tmp_path / "en.cdb", PASSCODES), slice_cdb(CDB_JA, tmp_path / "ja.cdb", PASSCODES)]


@pytest.fixture
def server(tmp_path: Path, small_pair: list[Path]) -> Iterator[str]:
    """A local HTTP server standing in for BabelCDB, YGOPRODeck and the LFLists repository."""
    root = tmp_path / "www"
    root.mkdir()
    for path in small_pair:
        (root / path.name).write_bytes(path.read_bytes())
    (root / "cardinfo.json").write_text(json.dumps(CARDINFO))
    (root / "OCG.lflist.conf").write_bytes(LFLIST_JA.read_bytes())

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(root)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()
    thread.join()


@pytest.mark.django_db
def test_import_merges_files_and_a_second_import_changes_nothing(
    capsys: pytest.CaptureFixture[str], small_pair: list[Path]
) -> None:
    code, out, _ = run(capsys, "cards", "--lang", "en", "import", *map(str, small_pair))
    assert code == 0 and "7 added, 0 updated, 0 unchanged" in out
    code, out, _ = run(capsys, "cards", "import", *map(str, small_pair), "--lang", "ja")
    assert code == 0 and "追加 0、更新 0、変更なし 7" in out
    assert Card.objects.get(passcode=14558127).name_ja == "灰流うらら"


@pytest.mark.django_db
def test_import_of_a_missing_or_broken_file_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "cards", "import", str(tmp_path / "nope.cdb"))
    assert code == 2 and "no such file" in err
    broken = tmp_path / "broken.cdb"
    broken.write_text("not a database")
    code, _, err = run(capsys, "cards", "import", str(broken))
    assert code == 2 and "not a cards.cdb" in err


@pytest.mark.django_db
def test_find_in_the_database_full_width_and_partial(
    capsys: pytest.CaptureFixture[str], small_pair: list[Path]
) -> None:
    run(capsys, "cards", "import", *map(str, small_pair))
    code, out, _ = run(capsys, "cards", "find", "ｎｏ．３９")
    assert code == 0 and out.splitlines()[0] == "84013237\tＮｏ．３９ 希望皇ホープ\tNumber 39: Utopia"
    code, out, _ = run(capsys, "cards", "find", "うらら", "--json")
    assert [row["card"] for row in json.loads(out)] == [14558127, 14558128]
    code, out, _ = run(capsys, "cards", "find", "zzzz", "--lang", "en")
    assert code == 1 and "no card matches" in out


def test_find_in_cdb_files_without_a_database(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "cards", "find", "増殖するG", "--cards", str(CDB_JA), "--cards", str(CDB_EN))
    assert code == 0 and out.startswith('23434538\t増殖するＧ\tMaxx "C"')


@pytest.mark.django_db
def test_sync_downloads_from_the_configured_urls(
    capsys: pytest.CaptureFixture[str], server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TAIKAI_CARDS_CDB_URLS", f"{server}/en.cdb")
    monkeypatch.setenv("TAIKAI_CARDS_JA_CDB_URL", f"{server}/ja.cdb")
    monkeypatch.setenv("TAIKAI_CARDS_JSON_URL", f"{server}/cardinfo.json")
    code, out, err = run(capsys, "cards", "sync", "--lflist-url", f"{server}/OCG.lflist.conf", "--lang", "en")
    assert (code, err) == (0, "")
    assert len(out.splitlines()) == 4  # cards (.cdb pair), cards (JSON), lists (JSON), lists (lflist)
    assert Card.objects.get(passcode=14558127).name_ja == "灰流うらら"
    assert str(Card.objects.get(passcode=14558127).ocg_date) == "2015-11-21"
    code, out, _ = run(capsys, "banlist", "show", "2026.7", "--json")
    assert json.loads(out)["entries"][0]["limit"] == 0


def test_sync_says_clearly_when_offline(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys, "cards", "sync", "--cdb-url", "http://127.0.0.1:9/cards.cdb", "--json-url", "", "--lflist-url", ""
    )
    assert (code, out) == (2, "")
    assert "cannot reach http://127.0.0.1:9/cards.cdb" in err and "taikai cards import" in err
    assert len(err.strip().splitlines()) == 1


@pytest.fixture
def shared_data_server() -> Iterator[str]:
    """A local HTTP server serving ../shared/data as it is, standing in for the card databases."""

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(DATA)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()
    thread.join()


@pytest.mark.django_db
def test_sync_brings_japanese_names_so_a_japanese_sheet_reads_out_of_the_box(
    capsys: pytest.CaptureFixture[str], shared_data_server: str, tmp_path: Path
) -> None:
    url = shared_data_server
    code, out, err = run(
        capsys,
        "cards",
        "sync",
        "--cdb-url",
        f"{url}/cards/cards-en-2026-08.cdb",
        "--ja-cdb-url",
        f"{url}/cards/cards-ja-2026-08.cdb",
        "--json-url",
        "",
        "--lflist-url",
        f"{url}/banlists/ocg-2026.07.lflist.conf",
    )
    assert code == 0, err
    ash = Card.objects.get(passcode=14558127)
    assert (ash.name_en, ash.name_ja) == ("Ash Blossom & Joyous Spring", "灰流うらら")
    assert Card.objects.exclude(name_ja="").count() == 14484 - 22  # 22 cards have no Japanese name
    sheet = tmp_path / "sheet.txt"
    sheet.write_text("メインデッキ\n《灰流うらら》×3\n", "utf-8")
    code, out, _ = run(capsys, "deck", "check", str(sheet), "--list", "2026.07 ocg", "--json")
    assert json.loads(out)["counts"]["main"] == 3


@pytest.mark.django_db
@pytest.mark.parametrize("order", [("en", "ja"), ("ja", "en")])
def test_importing_one_language_never_erases_the_other(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, order: tuple[str, str]
) -> None:
    files = {
        "en": slice_cdb(CDB_EN, tmp_path / "en.cdb", PASSCODES),
        "ja": slice_cdb(CDB_JA, tmp_path / "ja.cdb", PASSCODES),
    }
    for lang in order:  # separate commands, as an organizer would run them
        code, _, err = run(capsys, "cards", "import", str(files[lang]))
        assert code == 0, err
    ash = Card.objects.get(passcode=14558127)
    assert (ash.name_en, ash.name_ja) == ("Ash Blossom & Joyous Spring", "灰流うらら")
    code, out, _ = run(capsys, "cards", "import", str(files[order[0]]), "--lang", "en")
    assert "0 added, 0 updated, 7 unchanged" in out


@pytest.mark.django_db
def test_banlist_import_list_and_show(capsys: pytest.CaptureFixture[str], small_pair: list[Path]) -> None:
    run(capsys, "cards", "import", *map(str, small_pair))
    code, out, _ = run(capsys, "banlist", "import", str(LFLIST_JA))
    assert code == 0 and ("1 added" in out or "追加 1" in out)
    code, out, _ = run(capsys, "banlist", "list")
    assert out.startswith("2026.7\t197\t")
    code, out, _ = run(capsys, "banlist", "show", "2026.7", "--lang", "ja")
    assert code == 0
    assert "準制限\t14558127\t灰流うらら" in out.splitlines()
    assert "禁止\t8903700\t儀式魔人リリーサー" in out.splitlines()  # a name from the list's comment
    code, _, err = run(capsys, "banlist", "show", "nope", "--lang", "en")
    assert code == 2 and "no Forbidden/Limited list named 'nope'" in err


@pytest.mark.django_db
def test_banlist_import_skips_a_bad_line_and_names_it(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.conf"
    bad.write_text("!A\n1234 7\n5678 1\n")
    code, _, err = run(capsys, "banlist", "import", "--lang", "en", str(bad))
    assert code == 0 and "line 2 skipped" in err
    code, out, _ = run(capsys, "banlist", "show", "a", "--json")  # names match without regard to case
    assert code == 0 and [e["card"] for e in json.loads(out)["entries"]] == [5678]


@pytest.mark.django_db
def test_banlist_import_of_a_file_with_no_list_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.conf"
    bad.write_text("1234 7\n")
    code, _, err = run(capsys, "banlist", "import", str(bad))
    assert code == 2 and "bad.conf" in err


@pytest.mark.django_db
def test_sync_records_each_file_by_its_url_not_a_temporary_path(
    capsys: pytest.CaptureFixture[str], server: str
) -> None:
    # Issue 22: the record and the audit entry name where the data came from.
    from taikai.audit.models import AuditEntry
    from taikai.cards.models import Banlist, ImportRecord

    code, out, _ = run(
        capsys,
        *("cards", "sync", "--cdb-url", f"{server}/en.cdb", "--ja-cdb-url", f"{server}/ja.cdb"),
        *("--json-url", f"{server}/cardinfo.json", "--lflist-url", f"{server}/OCG.lflist.conf", "--lang", "en"),
    )
    assert code == 0 and "taikai-sync-" not in out
    sources = list(ImportRecord.objects.order_by("id").values_list("source", flat=True))
    assert sources == [
        f"{server}/en.cdb + {server}/ja.cdb",
        f"{server}/cardinfo.json",
        f"{server}/cardinfo.json",
        f"{server}/OCG.lflist.conf",
    ]
    assert Banlist.objects.get(name="2026.7").source == f"{server}/OCG.lflist.conf"
    assert [e.after["source"] for e in AuditEntry.objects.order_by("id")] == sources


@pytest.mark.django_db
def test_an_older_file_is_skipped_until_allow_older(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from tests.cards.test_older_imports import NEMESES, NEWER, write_json
    from tests.factories import CDB_2020

    newer = slice_cdb(CDB_EN, tmp_path / "2026.cdb", [NEMESES, 14558127, 101303071])
    cardinfo = write_json(tmp_path / "cardinfo.json", NEWER)
    assert run(capsys, "cards", "import", str(newer), str(cardinfo), "--lang", "en")[0] == 0
    older = str(slice_cdb(CDB_2020, tmp_path / "2020.cdb", [NEMESES, 14558127]))
    code, out, _ = run(capsys, "cards", "import", older, "--lang", "en")
    assert code == 0 and f"{older}: 0 added, 0 updated, 1 unchanged, 1 skipped as older — the file is as of" in out
    assert "--allow-older" in out and Card.objects.get(passcode=NEMESES).name_en == "Nemeses Corridor"
    code, out, _ = run(capsys, "cards", "import", older, "--allow-older", "--lang", "ja")
    assert code == 0 and "更新 1" in out and "指定により上書きしました" in out
    assert Card.objects.get(passcode=NEMESES).name_en == "Nemesys Corridor"


@pytest.mark.django_db
def test_banlist_import_names_each_changed_entry(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    run(capsys, "banlist", "import", str(LFLIST_JA))
    edited = tmp_path / "lflist.conf"
    edited.write_text(LFLIST_JA.read_text("utf-8").replace("\n23434538 1", "\n23434538 0", 1), "utf-8")
    code, out, _ = run(capsys, "banlist", "import", str(edited), "--lang", "en")
    assert code == 0 and "2026.7: 1 entries changed — the list is as of 2026-07-01" in out
    assert "    増殖するG: Limited → Forbidden" in out  # no card data stored: the list's comment names the card
