"""Pairing engines behind one call: ``pair(PairingInput) -> PairingResult`` (STYLE habit 3)."""

from __future__ import annotations

from taikai.core.pairing.types import (
    PairExplanation,
    PairingError,
    PairingInput,
    PairingResult,
    PlayerId,
    PlayerState,
)

__all__ = ["PairExplanation", "PairingError", "PairingInput", "PairingResult", "PlayerId", "PlayerState"]
