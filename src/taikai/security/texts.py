"""Japanese and English texts for the security app's problem codes (a full disk, the organizer's limits)."""

from taikai.messages import register

register(
    "disk-full",  # security.diskfull.CODE
    "サーバーのディスクがいっぱいのため、何も保存されませんでした。ページの表示はできます。"
    "サーバーのパソコンのディスクに空きを作ってから、もう一度お試しください。",
    "The server's disk is full: nothing was saved. Pages can still be read. "
    "Free space on the server's disk, then try again.",
)

register(
    "limit-range",
    "{field} は {low}〜{high} の数で入力してください。",
    "{field} must be a number from {low} to {high}.",
)
