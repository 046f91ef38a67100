"""Adding a language is a folder of `.ftl` files, and no code.

A third language (Marathi, `mr`) is put in a temporary folder and handed to a bot process
through `PAPLU_EXTRA_LOCALES`, the way a translator tries a translation: the bot offers it in
`/rummy language` and `/rummy settings language:`, a player can choose it, and their hand view
speaks it. Messages the folder lacks are read in English, so a translation can start small.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.harness import TOKEN, find_table_message, labels
from tests.fakediscord import FakeDiscord

MARATHI = {
    "language.ftl": "language-self = मराठी\n    .english = Marathi\n",
    "errors.ftl": "language-chosen = तुमचे खाजगी संदेश आता मराठीत आहेत.\n",
    "hand.ftl": "button-refresh = ताजे करा\n",
}


def _choices(fake: FakeDiscord, command: str) -> list[dict[str, Any]]:
    (rummy,) = [c for c in fake.server.global_commands if c["name"] == "rummy"]
    (sub,) = [o for o in rummy["options"] if o["name"] == command]
    (option,) = [o for o in sub["options"] if o["name"] == "language"]
    return list(option["choices"])


async def test_a_language_folder_is_offered_chosen_and_spoken(tmp_path: Path) -> None:
    extra = tmp_path / "locales" / "mr"
    extra.mkdir(parents=True)
    for name, body in MARATHI.items():
        (extra / name).write_text(body, encoding="utf-8")
    env = {
        "DATABASE_PATH": str(tmp_path / "bot.sqlite3"),
        "PAPLU_EXTRA_LOCALES": str(tmp_path / "locales"),
        "AI_DELAY": "0",
        "LOG_LEVEL": "WARNING",
    }
    async with FakeDiscord(users=["asha"], channels=["general"], token=TOKEN) as fake:
        proc = await fake.launch("bot", env=env, timeout=120)
        try:
            await fake.wait_for_commands("rummy")
            marathi = {"name": "मराठी (Marathi)", "value": "mr"}
            assert marathi in _choices(fake, "language")
            assert marathi in _choices(fake, "settings")

            chose = await fake.slash("asha", "general", "rummy language", language="mr")
            assert chose.ephemeral and "मराठीत" in chose.text

            lobby = await fake.slash("asha", "general", "rummy new", profile="points")
            await lobby.wait()
            assert lobby.message is not None
            lobby_msg = fake.message(lobby.message.id)
            await fake.select("asha", lobby_msg, ["easy"], placeholder="Add an AI player…")
            await fake.click("asha", fake.message(lobby_msg.id), label="Start")
            # (The bot of a subprocess has no thread permissions: the table plays here.)
            table = await fake.wait_for(lambda: find_table_message(fake, "general"))
            assert table is not None
            hand = await fake.click("asha", table, label="Your hand")
            view = fake.message((await hand.reply()).id)
            assert view.ephemeral
            shown = labels(view)
            assert "ताजे करा" in shown, shown  # her own view, in her language
            assert "Sort by suit" in shown or "Group by melds" in shown, shown  # English
            assert await fake.wait_idle() == []
        finally:
            await proc.terminate()
