"""What the players, the desk and the venue's internet do in the live follower test (test_follow_live.py).

A phone acts once on its table, as a player does: it opens its page (the follower's, or the venue's API), and
confirms when the opponent's report is there, reports otherwise (player A wins 2–0, both sides agreeing), or does
nothing once the table is decided; on the follower, a report refused because the table changed at the venue
before it arrived (END-4) is followed by what the page then offers (the opponent's report to confirm). What
each was told is kept as an ``Act``: applied, or refused with the words the player was shown. ``Chaos`` cuts the
link at random moments (a seeded RNG): idle, inside a request, inside an answer.
"""

from __future__ import annotations

import html
import re
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from random import Random

import httpx

from taikai.bench._live import client as live_client
from taikai.bench._proxy import ANSWER, REQUEST, Proxy

A_WINS = {"duels": [{"winner": "A"}, {"winner": "A"}]}
POLL = 0.4  # a phone on mobile data looking again


@dataclass
class Act:
    """One player's action on one table, and what they were shown."""

    where: str  # "follower" or "venue" (or "desk": the organizer entering the slip)
    player: str  # the player's id ("" for the desk)
    match: str
    kind: str = "none"  # report, confirm, enter; none: the table was decided before they acted
    status: str = "none"  # applied, refused
    message: str = ""  # a refusal's reason, as the player saw it
    key: str = ""  # the follower's action key
    saw_waiting: bool = False  # the follower's page said 「会場に送信待ち」


def _until(what: str, check: Callable[[], object], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(POLL)
    raise AssertionError(f"not within {timeout} s: {what}")


# --- at the venue, over the API ----------------------------------------------------------------------------------


def venue_phone(api: str, token: str, player: str, match: str) -> Act:
    act = Act("venue", player, match)
    headers = {"X-Player-Token": token}
    with live_client() as client:
        m = client.get(f"{api}/matches/{match}").json()
        if m["status"] == "confirmed":
            return act
        if m["status"] == "reported":  # not by this player (they act once): the opponent's, to confirm
            act.kind = "confirm"
            r = client.post(f"{api}/matches/{match}/confirm", json={"version": m["version"]}, headers=headers)
        else:
            act.kind = "report"
            body = {**A_WINS, "idempotency_key": secrets.token_hex(8)}
            r = client.post(f"{api}/matches/{match}/result", json=body, headers=headers)
    act.status = "applied" if r.status_code == 200 else "refused"
    if r.status_code != 200:
        act.message = r.json()["error"]["message"]
        assert act.message, r.text
    return act


def desk_enters(api: str, boss: str, match: str) -> Act:
    """The organizer types the paper slip in at the venue: confirmed at once, unless the table was decided."""
    r = httpx.post(f"{api}/matches/{match}/result", json=A_WINS, headers={"Authorization": f"Bearer {boss}"})
    act = Act("desk", "", match, "enter", "applied" if r.status_code == 200 else "refused")
    if r.status_code != 200:
        act.message = r.json()["error"]["message"]
    return act


# --- on the follower, by the player's page -----------------------------------------------------------------------

FORM = re.compile(r"<form\b[^>]*>.*?</form>", re.S)
FIELD = re.compile(r'<(?:input|button)\b[^>]*\bname="(\w+)"[^>]*\bvalue="([^"]*)"', re.S)
ACTION = re.compile(
    r'<p class="answer[^"]*?(queued|applied|refused)" data-testid="action-\w+" data-key="(\w+)"[^>]*>(.*?)</p>', re.S
)


def _forms(page: str) -> dict[str, dict[str, str]]:
    """The page's action forms by kind, with their fields (the first button's value for a choice)."""
    out: dict[str, dict[str, str]] = {}
    for form in FORM.findall(page):
        fields: dict[str, str] = {}
        for name, value in FIELD.findall(form):
            fields.setdefault(name, html.unescape(value))
        if "kind" in fields:
            out[fields["kind"]] = fields
    return out


def _outcome(page: str, key: str) -> tuple[str, str] | None:
    for status, found, text in ACTION.findall(page):
        if found == key:
            why = re.search(r'<span class="why">(.*?)</span>', text, re.S)
            return status, html.unescape(why.group(1).strip()) if why else ""
    return None


@dataclass
class FollowerPhone:
    follower: str
    token: str
    player: str
    client: httpx.Client = field(default_factory=live_client)

    def page(self) -> str:
        r = self.client.get(f"{self.follower}/p/{self.token}/")
        assert r.status_code == 200, r.text
        return r.text

    def act(self, match: str, a_side: bool, timeout: float = 90) -> Act:
        """Wait for the table on the follower's page, act on it, and wait for the venue's answer there."""
        act = Act("follower", self.player, match)
        found: dict[str, dict[str, str]] = {}

        last = [""]

        def ready() -> bool:
            """The table there, to report or to confirm, or decided already."""
            last[0] = page = self.page()
            found.clear()
            found.update((k, f) for k, f in _forms(page).items() if k in ("report", "confirm") and f["match"] == match)
            return bool(found) or f'data-decided="{match}"' in page

        try:
            _until(f"table {match} on the follower for player {self.player}", ready, timeout)
        except AssertionError as exc:
            status = last[0].split('id="match-status"', 1)[-1][:600]
            raise AssertionError(f"{exc}; the page said: {status}") from None
        form = found.get("confirm") or found.get("report")
        if form is None:
            return act  # decided before they acted
        act.kind, act.key = form["kind"], form["key"]
        data = {**form, "csrfmiddlewaretoken": self.client.cookies["csrftoken"]}
        if act.kind == "report":
            data["quick"] = "win-2-0" if a_side else "loss-0-2"
        sent = self.client.post(f"{self.follower}/p/{self.token}/act", data=data)
        assert sent.status_code == 302, sent.text
        self.wait(act, timeout)
        return act

    def play(self, match: str, a_side: bool, timeout: float = 90) -> list[Act]:
        """``act``, and again after a refused report, as a player does who reads why on the page: the opponent
        reported first at the venue (confirm it now), or the desk entered the table (nothing left to do)."""
        acts = [self.act(match, a_side, timeout)]
        while acts[-1].kind == "report" and acts[-1].status == "refused" and len(acts) < 5:
            acts.append(self.act(match, a_side, timeout))
        return acts

    def wait(self, act: Act, timeout: float = 90) -> None:
        def decided() -> bool:
            seen = _outcome(self.page(), act.key)
            assert seen is not None, f"player {self.player}'s action {act.key} is not on their page"
            act.saw_waiting = act.saw_waiting or seen[0] == "queued"
            if seen[0] != "queued":
                act.status, act.message = seen
            return seen[0] != "queued"

        _until(f"the venue's answer to {act.key} on the follower", decided, timeout)

    def close(self) -> None:
        self.client.close()


# --- the venue's internet ------------------------------------------------------------------------------------------


@dataclass
class Chaos:
    """Cuts the link at random moments until stopped: a third idle, a third inside a request on its way, a
    third inside the follower's answer (in a random order); each down for a random while. ``lock`` is held for
    a cut and its restore (a round start takes it to cut the link itself)."""

    proxy: Proxy
    rng: Random
    lock: threading.Lock = field(default_factory=threading.Lock)
    stop: threading.Event = field(default_factory=threading.Event)
    kinds: dict[str, int] = field(default_factory=lambda: {"idle": 0, REQUEST: 0, ANSWER: 0, "round start": 0})
    error: BaseException | None = None

    def total(self) -> int:
        return sum(self.kinds.values())

    def start(self) -> threading.Thread:
        thread = threading.Thread(target=self._run, daemon=True, name="chaos")
        thread.start()
        return thread

    def _run(self) -> None:
        try:
            order: list[str] = []
            while not self.stop.wait(self.rng.uniform(0.4, 2.0)):
                order = order or self.rng.sample(["idle", REQUEST, ANSWER], 3)  # each kind once in every three
                kind = order.pop()
                down = self.rng.uniform(0.1, 1.2)
                with self.lock:
                    if kind == "idle" or not self.proxy.cut_mid(kind, timeout=3):
                        kind = "idle"
                        self.proxy.cut()
                    self.kinds[kind] += 1
                    time.sleep(down)
                    self.proxy.restore()
        except BaseException as exc:  # seen by the test, which fails naming it
            self.error = exc
            self.proxy.restore()

    def round_start(self, start: Callable[[], object], down: float) -> None:
        """The link drops as the organizer pairs and starts the round, and comes back ``down`` s later."""
        with self.lock:
            self.proxy.cut()
            self.kinds["round start"] += 1
            start()
            time.sleep(down)
            self.proxy.restore()
