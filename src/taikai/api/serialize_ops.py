"""Judging rows -> wire dictionaries (read-only): penalties with their effects, appeals, prizes, calls."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, prefetch_related_objects

from taikai.events.models import Match, Player
from taikai.judging.models import Appeal, CallCaller, JudgeCall, Penalty
from taikai.judging.services.prizes import PrizeStandings, prize_standings, prizes_published
from taikai.webhooks.models import Webhook


def _ref(pk: Any, names: dict[str, str]) -> dict[str, str]:
    return {"id": str(pk), "name": names.get(str(pk), "")}


def _match_state(snap: dict[str, Any]) -> dict[str, Any]:
    return {
        "status": snap.get("status", ""),
        "result": snap.get("result", ""),
        "duels": {"a": snap.get("duel_wins_a", 0), "b": snap.get("duel_wins_b", 0), "draws": snap.get("duel_draws", 0)},
    }


def prize_of(standings: PrizeStandings, player_id: int) -> str | None:
    if standings.awards is None:
        return None
    index = standings.awards.prize_of(str(player_id))
    return standings.awards.ranks[index].rank.label if index is not None else None


def penalty_row(p: Penalty, standings: PrizeStandings, player: Player | None = None) -> dict[str, Any]:
    """The penalty and what it did: the penalty's own record of its effects (``Penalty.effects``), read
    generically so an effect kind added later still reaches the caller (under ``other``)."""
    player = player or p.player
    changes, other, team_dropped = [], [], False
    tables = {
        m.pk: m
        for m in Match.objects.filter(pk__in=[e.get("match") for e in p.effects if e.get("kind") == "result"])
        .select_related("round")
        .only("pk", "table", "round__number")
    }
    for effect in p.effects:
        kind = effect.get("kind")
        if kind == "result":
            m = tables.get(effect.get("match"))
            changes.append(
                {
                    "match": str(effect.get("match")),
                    "round": m.round.number if m else None,
                    "table": m.table if m else None,
                    "before": _match_state(effect.get("before") or {}),
                    "after": _match_state(effect.get("after") or {}),
                }
            )
        elif kind == "team-drop":
            team_dropped = True
        elif kind != "drop":
            other.append({k: v for k, v in effect.items() if k not in ("before", "after")})
    return {
        "id": str(p.pk),
        "player": {"id": str(player.pk), "name": player.name},
        "infraction": p.infraction,
        "rung": p.rung,
        "default_rung": p.default_rung,
        "reason": p.rung_reason,
        "description": p.description,
        "issued_by": p.issued_by.get_username(),
        "issued_at": p.issued_at.isoformat(),
        "overturned": p.overturned,
        "in_database": p.in_database,
        "effects": {
            "matches": changes,
            "dropped": player.dropped,
            "disqualified": player.disqualified,
            "team_dropped": team_dropped,
            "waiting_for_next_match": p.waiting_for_next_match,
            "prize": {
                "downgrade_steps": p.downgrade_steps,
                "prize_loss": p.prize_loss,
                "prize": prize_of(standings, player.pk),
            },
            "other": other,
        },
    }


def penalty_rows(penalties: list[Penalty]) -> list[dict[str, Any]]:
    if not penalties:
        return []
    standings = prize_standings(penalties[0].event)
    return [penalty_row(p, standings) for p in penalties]


def appeal_row(a: Appeal) -> dict[str, Any]:
    return {
        "id": str(a.pk),
        "penalty": str(a.penalty_id) if a.penalty_id else None,
        "player": {"id": str(a.player_id), "name": a.player.name},
        "status": a.status,
        "reason": a.reason,
        "decision_note": a.decision_note,
    }


def prizes_payload(event: Any) -> dict[str, Any]:
    standings = prize_standings(event)
    names = standings.names
    ranks = []
    awards = standings.awards
    for i, rank in enumerate(standings.ranks):
        award = awards.ranks[i] if awards is not None else None
        playoff = award.playoff if award is not None else None
        ranks.append(
            {
                "label": rank.label,
                "first": rank.first,
                "last": rank.last,
                "shared": rank.shared,
                "players": [_ref(e, names) for e in award.entrants] if award else [],
                "downgraded": [str(e) for e in award.downgraded] if award else [],
                "playoff": {"slots": playoff.slots, "candidates": [_ref(c, names) for c in playoff.candidates]}
                if playoff
                else None,
                "from_playoff_above": award.from_playoff_above if award else 0,
            }
        )
    return {
        "published": prizes_published(event),
        "playoff_needed": bool(awards and awards.playoff_needed),
        "ranks": ranks,
        "no_prize": [_ref(e, names) for e in awards.no_prize] if awards else [],
    }


def call_row(c: JudgeCall) -> dict[str, Any]:
    return {
        "id": str(c.pk),
        "table": c.table,
        "match": str(c.match_id) if c.match_id else None,
        "source": c.source,
        "status": c.status,
        "description": c.description,
        "ruling": c.ruling,
        "taken_by": c.taken_by.get_username() if c.taken_by_id and c.taken_by else None,
        "created_at": c.created_at.isoformat(),
        "ruling_seconds": c.ruling_seconds,
        "extended_seconds": c.extended_seconds,
        "callers": [
            {
                "player": str(row.player_id),
                "name": row.player.name,
                "question": row.question,
                "called_at": row.called_at.isoformat(),
                "withdrawn_at": row.withdrawn_at.isoformat() if row.withdrawn_at else None,
            }
            for row in c.callers.all()  # prefetched by a list (calls_with_callers)
        ],
    }


def calls_with_callers(calls: list[JudgeCall]) -> list[JudgeCall]:
    """The calls with their callers and the callers' names read in two queries, not two per call."""
    prefetch_related_objects(calls, Prefetch("callers", queryset=CallCaller.objects.select_related("player")))
    return calls


def webhook_row(w: Webhook, secret: str | None = None) -> dict[str, Any]:
    return {
        "id": str(w.pk),
        "url": w.url,
        "active": w.active,
        "delivered": w.delivered,
        "skipped": w.skipped,
        "failures": w.failures,
        "last_error": w.last_error,
        "disabled_at": w.disabled_at.isoformat() if w.disabled_at else None,
        "secret": secret,
    }
