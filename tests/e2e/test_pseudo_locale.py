"""Every word a player reads comes from the catalogue (issue 23).

The pseudo-locale `x-pseudo` words each message as its English wrapped in ⟦ ⟧. A server and
two players whose Discord speaks it play a whole pool match against an AI (the lobby, the
deals, timeouts, a drop, the results, `/rummy help` and `/rummy rules`); afterwards every
text anyone was shown, in every version of every message (contents, embed titles,
descriptions, fields and footers, button labels, menu placeholders and options, picture
descriptions), is checked: take away the ⟦…⟧ pieces and what is left may only be what no
catalogue words: player names, card codes, numbers, mentions, timestamps, emoji,
punctuation, and the codes players type (profile names, table ids, hashes). A sentence
built in code, outside the catalogue, leaves English words behind and fails the test.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tests.e2e.harness import TableDriver, game_env
from tests.fakediscord import StoredMessage

PSEUDO = "x-pseudo"
PLAYERS = ["alice", "bob"]

#: What may stand outside ⟦ ⟧: Discord markup, cards, numbers, the codes players type.
OUTSIDE_ALLOWED = [
    r"<@!?\d+>", r"<#\d+>", r"<t:\d+(:[A-Za-z])?>",  # mentions, channels, timestamps
    r"`[^`]*`",  # code spans: commands, profiles, hashes
    r"(?:10|[2-9AJQK])[♠♥♦♣]\*?(?:🆕)?", r"🃏", r"JK",  # cards as the bot writes them
    r"\b[0-9a-z]{8,12}\b",  # table ids
    r"\b[0-9a-f]{16,64}\b",  # shuffle hashes and salts
    r"\bpool101\b", r"\bpoints\b", r"\bsha256\b",  # profile names, the hash's name
]  # fmt: skip


def bare(text: str, names: set[str]) -> list[str]:
    """The Latin words of `text` outside every ⟦…⟧ piece that are not allowed there."""
    outside = text
    while True:
        stripped = re.sub(r"⟦[^⟦⟧]*⟧", " ", outside)
        if stripped == outside:
            break
        outside = stripped
    for pattern in OUTSIDE_ALLOWED:
        outside = re.sub(pattern, " ", outside)
    for name in sorted(names, key=len, reverse=True):
        outside = outside.replace(name, " ")
    return re.findall(r"[A-Za-z]{2,}", outside)


def shown_texts(shot: dict[str, Any]) -> list[str]:
    """Every text a message version shows a reader."""
    out = [shot.get("content") or ""]
    for e in shot.get("embeds") or []:
        out += [e.get("title") or "", e.get("description") or ""]
        out.append((e.get("footer") or {}).get("text") or "")
        out.append((e.get("author") or {}).get("name") or "")
        for f in e.get("fields") or []:
            out += [f.get("name") or "", f.get("value") or ""]
    for row in shot.get("components") or []:
        for c in row.get("components", []):
            out += [c.get("label") or "", c.get("placeholder") or ""]
            for o in c.get("options") or []:
                out += [o.get("label") or "", o.get("description") or ""]
    for a in shot.get("attachments") or []:
        out.append(a.get("description") or "")
    return [t for t in out if t]


def versions(msg: StoredMessage) -> list[dict[str, Any]]:
    now = {
        "content": msg.content,
        "embeds": msg.embeds,
        "components": msg.components,
        "attachments": msg.attachments,
    }
    return [*msg.edits, now]


async def test_a_whole_game_in_the_pseudo_locale_shows_only_catalogue_words(
    tmp_path: Path,
) -> None:
    async with game_env(tmp_path, [*PLAYERS, "carol"], 5, next_deal_delay=60.0) as env:
        fake = env.fake
        fake.set_guild_locale(PSEUDO)
        for user in [*PLAYERS, "carol"]:
            fake.set_locale(user, PSEUDO)
        driver = TableDriver(fake, PLAYERS)
        await driver.open("alice", ai=["easy"], profile="pool101")
        await driver.start("alice")
        for command in ("rummy help", "rummy rules", "rummy table"):
            await (await fake.slash("carol", "general", command)).wait()
        final = await driver.play()
        assert final is not None

        table = env.last_table()
        names = {seat.name for seat in table.seats} | set(PLAYERS) | {"carol"}
        messages = [m for m in fake.server.messages.values()]
        assert sum(1 for m in messages if m.ephemeral) > 10 and len(messages) > 20
        found: dict[str, list[str]] = {}
        for msg in messages:
            for shot in versions(msg):
                for text in shown_texts(shot):
                    left = bare(text, names)
                    if left:
                        found.setdefault(" ".join(left), []).append(text)
        assert not found, json.dumps(
            {k: v[:2] for k, v in list(found.items())[:25]}, ensure_ascii=False, indent=1
        )
        await env.finish()
