"""What the `taikai` command writes to a terminal: names from files and users, never terminal commands.

A file named ``\\x1b]0;...\\x07deck.ydk`` printed raw retitles the window, clears the screen or hides the
rest of a line; right-to-left overrides make a name read backwards. Every such character is shown as its
``\\uXXXX`` code instead (also a valid escape inside a JSON string), keeping new lines and tabs.
"""

from __future__ import annotations

import re

# C0 controls but tab and new line, DEL, C1 controls (0x9b is a one-byte CSI), and the bidirectional controls
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def shown(text: str) -> str:
    """`text` with every terminal control character written as ``\\uXXXX``."""
    return UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
