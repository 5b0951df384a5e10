"""One line of a text deck sheet as a person reads it: decoration, a remark, a heading, or a card line.

Headings are read before cards (issue 26): ``融合`` above fusion monsters is a heading, not
Polymerization; ``融合/シンクロ/エクシーズ/リンク`` opens the extra deck; ``モンスターカード×25枚``,
``(モンスター×40)``, ``メインデッキ: 計42枚`` and ``総数[60](…)`` are headings with their counts;
``────`` rules, ``◼︎9枚`` sub-totals and shop-table header rows are decoration; ``※…`` and
``使用者: …`` lines are remarks. A card line's name keeps the brackets that belong to it
(炎舞－「天璣」, 『焔聖剣－デュランダル』) and loses those around it (《…》, 【…】, 「…」 as quotes).

Pure: plain strings in, plain values out.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterator

# --- cleaning ------------------------------------------------------------------------------------

_INVISIBLE = dict.fromkeys(map(ord, "\ufe0e\ufe0f\u200b\u200c\u200d\ufeff"))
_BULLETS = "-・•*◆◇■□●○◎★☆▼▽▶►◼◻▪▫◾◽♦"
_BULLETS_AND_SPACE = _BULLETS + " "
_BULLET = re.compile(rf"^(?:[{re.escape(_BULLETS)}]\s*)+(?=\S)")
# "1. 名前 ×3", "2) 名前": a list's own numbering, not a count (no card name starts with "N.").
_NUMBERED = re.compile(r"^\d{1,3}[.)]\s*(?=\D)")


def clean_line(raw: str) -> str:
    """NFKC, invisible marks (``◼︎``'s variation selector) and leading bullets removed."""
    line = unicodedata.normalize("NFKC", raw).translate(_INVISIBLE).strip()
    return _BULLET.sub("", line).strip()


# --- decoration and remarks ----------------------------------------------------------------------

_RULE = re.compile(r"^[\s\-_=~ー―─━═┄┅┈┉╌╍・*#+.]{3,}$")
_SUBTOTAL = re.compile(r"^[(\[]?\s*(?:計|合計|total)?\s*[x×*]?\s*\d{1,3}\s*枚\s*[)\]]?$", re.IGNORECASE)
_TABLE_WORDS = {"カード名", "枚数", "価格", "値段", "金額", "小計", "レアリティ", "型番", "在庫", "数量"}
_TABLE_WORDS |= {"name", "card", "card name", "qty", "quantity", "price", "rarity", "set"}
_LABELS = (
    "使用者|作成者|製作者|作者|投稿者|プレイヤー|プレーヤー|デッキ名|デッキタイプ|大会名|大会|戦績|成績|結果"
    "|日付|日時|開催日|備考|コメント|メモ|参考|順位|出典|環境|レギュレーション|名前|氏名"
)
_REMARK_LINE = re.compile(rf"^(?:※|注[:：]|(?:{_LABELS})\s*[:：])")


def is_decoration(line: str) -> bool:
    """A rule line (``────``), a bullet alone, a bare sub-total (``9枚``) or a table's header row
    (``カード名	枚数``)."""
    if not line.strip(_BULLETS_AND_SPACE) or _RULE.match(line) or _SUBTOTAL.match(line):
        return True
    if "\t" not in line and "  " not in line:
        return False
    cells = {c.strip().casefold() for c in re.split(r"\t|\s{2,}", line) if c.strip()}
    return len(cells) >= 2 and cells <= _TABLE_WORDS


def is_remark(line: str) -> bool:
    """A whole-line remark: ``※…``, ``使用者: …``, ``デッキ名：…``."""
    return bool(_REMARK_LINE.match(line))


# --- headings ------------------------------------------------------------------------------------

_DECOR = "【】[]()<>〈〉《》「」『』◆◇■□●○★☆▼▽▶►◎◉♦・:=~-_ 　\t|"
_SECTION = (
    r"(?P<main>メインデッキ|メイン|main\s*deck|main|デッキ|deck)"
    r"|(?P<extra>エクストラデッキ|エクストラ|ex\s*デッキ|extra\s*deck|extra|ex)"
    r"|(?P<side>サイドデッキ|サイド|side\s*deck|side\s*board|side)"
)
_EXTRA_WORD = r"(?:融合|シンクロ|エクシーズ|リンク|fusions?|synchros?|xyzs?|links?)"
_GROUP = (
    rf"(?P<extragroup>{_EXTRA_WORD}(?:\s*[/・&,、]\s*{_EXTRA_WORD})+(?:モンスター|\s*monsters?)?)"
    r"|(?P<group>(?:通常|効果|儀式|融合|シンクロ|エクシーズ|リンク|ペンデュラム|チューナー)?モンスター"
    r"|魔法\s*[・/&]?\s*罠|魔法|罠|融合|シンクロ|エクシーズ|リンク|ペンデュラム"
    r"|(?:normal\s*|effect\s*|ritual\s*)?monsters?|spells?|traps?|fusions?|synchros?|xyzs?|links?)"
    r"(?:カード|\s*cards?)?"
)
_TOTAL = r"(?P<total>総数|合計|総枚数|計|total)"
_COUNT = (
    r"(?:(?:計|合計|total)\s*)?[x×*]?\s*"
    r"(?P<low>\d{1,3})(?:\s*[〜~-]\s*(?P<high>\d{1,3}))?\s*(?:枚|cards?)?"
)
_HEADING = re.compile(rf"^(?:{_SECTION}|{_GROUP}|{_TOTAL})[\s{re.escape(_DECOR)}]*(?:{_COUNT})?$", re.IGNORECASE)
_TRAILING_NOTE = re.compile(r"\s*[(（][^()（）]*[)）]\s*$")
_EXTRA_KIND = re.compile(_EXTRA_WORD, re.IGNORECASE)


def heading(line: str) -> re.Match[str] | None:
    """The heading ``line`` is, with its count (groups ``main``/``extra``/``side``, ``group``,
    ``extragroup``, ``total``, ``low``, ``high``), or None. A remark in brackets after it is ignored."""
    for text in (line, _TRAILING_NOTE.sub("", line)):
        match = _HEADING.match(text.strip(_DECOR))
        if match is not None:
            return match
    return None


@functools.lru_cache(maxsize=1024)
def heading_like(name: str) -> bool:
    """A card name that reads as a heading too (融合 is Polymerization): only a line naming such a card
    is asked whether it is a heading; any other line that names a card is that card."""
    return heading(name) is not None


def opens_extra(match: re.Match[str]) -> bool:
    """``融合/シンクロ/エクシーズ/リンク``, ``融合``, ``リンクモンスター``: what follows is extra-deck monsters."""
    if match.group("extragroup"):
        return True
    group = match.group("group")
    return bool(group and _EXTRA_KIND.search(group))


def decorated(line: str) -> bool:
    """Written as a heading (``【融合】``, ``[融合]``, ``融合:``), not as a card name (``《融合》``)."""
    text = line.strip()
    return text[:1] in "【[(<〈" or text.endswith((":", "】", "]"))


# --- card lines ----------------------------------------------------------------------------------

_REMARK = re.compile(r"\s*(?:\([^()]*\)|※.*|[△▲○◎●☆★♪?]+|[¥]\s*[\d,]+(?:円)?|[\d,]*\d,\d{3}円|\d+円)\s*$")
_PATTERNS = (
    # (pattern, name group, count group)
    (re.compile(r"^(\d{1,2})\s*(?:[x×*]\s*)?(?:枚\s*)?\s+(.+)$", re.IGNORECASE), 2, 1),  # 3 Name, 3x Name
    (re.compile(r"^(\d{1,2})\s*[x×*]\s*(.+)$", re.IGNORECASE), 2, 1),  # 3x《Name》
    # "名前 3枚" before "Name ×3": メタル・デビルゾアＸ 3枚 is three of it, not メタル・デビルゾア ×3.
    (re.compile(r"^(.+?)\s*(\d{1,2})\s*枚$"), 1, 2),  # 名前 3枚
    (re.compile(r"^(.+?)\s*[x×*]\s*(\d{1,2})\s*枚?$", re.IGNORECASE), 1, 2),  # Name ×3, 名前*3
    (re.compile(r"^(.+?[》」』】])\s*(\d{1,2})$"), 1, 2),  # 《名前》3
    (re.compile(r"^(.+?\S)\s+(\d)$"), 1, 2),  # Name 3
    (re.compile(r"^(.*\D)(\d)$"), 1, 2),  # 名前3 (one digit: "No.39" is not 39 copies)
)
# Brackets around a name: quoting marks, never part of it when they enclose the whole name.
_AROUND = {"《": "》", "【": "】", "〈": "〉", "<": ">", "[": "]", "「": "」", "『": "』", '"': '"'}
_ANY_BRACKET = "《》「」『』〈〉<>【】"
_PRICE_CELL = re.compile(r"^(?:¥\s*[\d,]+(?:円)?|[\d,]+円)$")
_COUNT_CELL = re.compile(r"^[x×*]?(\d{1,2})\s*枚?$", re.IGNORECASE)


def _unwrapped(text: str) -> list[str]:
    """``text`` and each step of taking an enclosing pair of brackets off it."""
    steps = [text.strip()]
    while len(steps[-1]) >= 2 and _AROUND.get(steps[-1][0]) == steps[-1][-1]:
        steps.append(steps[-1][1:-1].strip())
    return steps


def name_forms(text: str) -> list[str]:
    """The name as written first (炎舞－「天璣」, 『焔聖剣－デュランダル』), then with each enclosing pair of
    brackets taken off (《…》, 【…】, 「…」 used as quotes), then with stray brackets stripped."""
    text = text.strip()
    if text[:1] not in _AROUND and text[-1:] not in _ANY_BRACKET:
        return [text] if text else []  # nothing to take off: most lines
    forms = _unwrapped(text)
    forms.append(forms[-1].strip(_ANY_BRACKET).strip())
    return [f for f in dict.fromkeys(forms) if f]


def _table_reading(line: str) -> tuple[str, int] | None:
    """A row copied from a shop page's table: ``灰流うらら	3	¥1,280`` or ``3	灰流うらら``."""
    if "\t" not in line:
        return None
    cells = [c.strip() for c in line.split("\t") if c.strip() and not _PRICE_CELL.match(c.strip())]
    counts = [c for c in cells if _COUNT_CELL.match(c)]
    names = [c for c in cells if not _COUNT_CELL.match(c)]
    if len(names) != 1 or len(counts) > 1:
        return None
    match = _COUNT_CELL.match(counts[0]) if counts else None
    return names[0], int(match.group(1)) if match else 1


def _texts(line: str) -> list[str]:
    texts = [line]
    for text in list(texts):
        unnumbered = _NUMBERED.sub("", text)
        if unnumbered != text:
            texts.append(unnumbered)
    for text in list(texts):
        without_remark = _REMARK.sub("", text)
        while without_remark and without_remark != text:
            texts.append(without_remark)
            text, without_remark = without_remark, _REMARK.sub("", without_remark)
    return list(dict.fromkeys(texts))


def iter_readings(line: str) -> Iterator[tuple[str, int]]:
    """The ways a card line can be read, most literal first: the whole line as a name, then with a
    count. Lazy: the reader stops at the first one that names a card, usually the first."""
    yield from ((form, 1) for form in name_forms(line))
    table = _table_reading(line)
    if table is not None:
        yield from ((form, table[1]) for form in name_forms(table[0]))
    for k, text in enumerate(_texts(line)):
        if k:  # the first is the line itself, tried above
            yield from ((form, 1) for form in name_forms(text))
        for pattern, name_group, count_group in _PATTERNS:
            match = pattern.match(text)
            if match:
                count = int(match.group(count_group))
                yield from ((form, count) for form in name_forms(match.group(name_group)))


def readings(line: str) -> list[tuple[str, int]]:
    """``iter_readings`` as a list, each reading once."""
    return list(dict.fromkeys(iter_readings(line)))


def unknown_reading(line: str) -> tuple[str, int]:
    """The reading to report for a name nobody knows: numbering and remark off, the count taken off,
    enclosing quotes off (brackets inside the name kept)."""
    table = _table_reading(line)
    if table is not None:
        return _reported(table[0]), table[1]
    texts = _texts(line)
    text = texts[-1]
    for pattern, name_group, count_group in _PATTERNS:
        match = pattern.match(text)
        if match and _reported(match.group(name_group)):
            return _reported(match.group(name_group)), int(match.group(count_group))
    return _reported(text) or text, 1


def _reported(text: str) -> str:
    return _unwrapped(text)[-1]
