"""Japanese and English texts for the follower's own problem codes."""

from __future__ import annotations

from taikai.messages import register

register(
    "follow-link-revoked",
    "このリンクは会場で無効になりました。受付で新しいリンクを受け取ってください。",
    "This link no longer works at the venue: get a new one at the desk.",
)
register(
    "follow-match-gone",
    "この卓は会場でなくなりました（組み合わせが変わりました）。新しい組み合わせを確かめてください。",
    "This table no longer exists at the venue (the pairings changed): check the new pairings.",
)
register("follow-bad-action", "この操作は受け付けられません。", "This action cannot be taken.")
register(
    "follow-read-only",
    "ここは会場の公開コピーです。変更は会場のサーバーで行ってください。",
    "This is the venue's public copy: make changes on the venue's server.",
)
