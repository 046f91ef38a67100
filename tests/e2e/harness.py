"""Running the real bot against the fake Discord, and acting as players through their views.

Players act only through what their own views show: they open their hand with the table's
button, read the ephemeral message, and click its buttons or pick from its menus.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

from bot.config import Settings
from bot.discord_ui.client import PapluBot
from bot.words import catalogue
from tests.fakediscord import FakeDiscord, RouteLimit, StoredMessage
from tests.fakediscord.driver import DEADLINE

TOKEN = "MTAxMDEwMTAxMDEwMTAxMDEw.GhIjKl.abcdefghijklmnopqrstuvwxyz0123"
T = TypeVar("T")


def settings(db: Path, seed: int | None = 7, **kw: Any) -> Settings:
    base: dict[str, Any] = dict(
        token=TOKEN,
        database_path=db,
        dev_guild_id=None,
        log_level=20,
        ai_delay=0.0,
        next_deal_delay=0.3,
        deck_seed=seed,
    )
    base.update(kw)
    return Settings(**base)


@contextlib.asynccontextmanager
async def running_bot(
    tmp_path: Path, users: list[str], seed: int | None = 7, **kw: Any
) -> AsyncIterator[tuple[FakeDiscord, PapluBot]]:
    async with FakeDiscord(users=users, channels=["general"], token=TOKEN) as fake:
        bot = PapluBot(settings(tmp_path / "bot.sqlite3", seed, **kw))
        scripted_pace(fake, client=bot)
        async with fake.running(bot):
            await fake.wait_for_commands("rummy")
            yield fake, bot


async def eventually(
    check: Callable[[], Awaitable[T]],
    *,
    timeout: float = DEADLINE,
    message: str = "the condition never held",
) -> T:
    """Poll an async `check` (a read of the bot's database, which work after a commit reaches
    later) until it returns something truthy; fail only after the deadline. The database has
    no event to wait on, and a loaded machine may take seconds to get there."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        value = await check()
        if value:
            return value
        if loop.time() > deadline:
            raise TimeoutError(f"{message} (after {timeout:g}s): {value!r}")
        await asyncio.sleep(0.05)


def text(msg: StoredMessage) -> str:
    return msg.text()


def labels(msg: StoredMessage) -> list[str]:
    out = []
    for row in msg.components or []:
        for comp in row.get("components", []):
            if comp.get("type") == 2:
                out.append(comp.get("label") or "")
    return out


def enabled(msg: StoredMessage, prefix: str) -> bool:
    for row in msg.components or []:
        for comp in row.get("components", []):
            if comp.get("type") == 2 and (comp.get("label") or "").startswith(prefix):
                return not comp.get("disabled", False)
    return False


def label_starting(msg: StoredMessage, prefix: str) -> str | None:
    for label in labels(msg):
        if label.startswith(prefix):
            return label
    return None


def select_options(msg: StoredMessage, placeholder_prefix: str) -> list[dict[str, Any]]:
    for row in msg.components or []:
        for comp in row.get("components", []):
            if comp.get("type") == 3 and (comp.get("placeholder") or "").startswith(
                placeholder_prefix
            ):
                return list(comp.get("options", []))
    return []


def deadwood_of(option: dict[str, Any]) -> int:
    """What a discard-menu option says it leaves: -1 for a valid declaration, else the
    deadwood (999 when it says nothing), in any language of the catalogue."""
    desc = option.get("description") or ""
    if any(desc == catalogue().text(tag, "hand-leaves-valid") for tag in catalogue().locales):
        return -1
    m = re.search(r"(\d+)", desc)
    return int(m.group(1)) if m else 999


Say = Callable[..., str]


def words_in(locale: str) -> Say:
    """The catalogue's words in one language: `say("button-draw")`, `say("button-take",
    card="7♥")`; a scripted player reads their own view in their own language."""

    def say(msg_id: str, **args: Any) -> str:
        return catalogue().text(locale, msg_id, args)

    return say


ENGLISH = words_in("en")

#: The languages a public message may be in (a table speaks its server's language).
LANGUAGES = ("en", "hi", "x-pseudo")


def in_any(msg_id: str, **args: Any) -> set[str]:
    """A message as every language words it: what a public text may read."""
    return {words_in(lang)(msg_id, **args) for lang in LANGUAGES}


def shaped(msg_id: str, **slots: str) -> list[re.Pattern[str]]:
    r"""A message's shape in every language, each variable in `slots` standing for the regex
    it gives (`shaped("turn-ping", mention=r"<@\d+>")`)."""
    out = []
    for lang in LANGUAGES:
        marks = {name: f"\x00{i}\x00" for i, name in enumerate(slots)}
        pattern = re.escape(words_in(lang)(msg_id, **marks))
        for i, regex in enumerate(slots.values()):
            pattern = pattern.replace(re.escape(f"\x00{i}\x00"), regex)
        out.append(re.compile(pattern))
    return out


def label_of(msg: StoredMessage, msg_id: str) -> str | None:
    """The label of `msg`'s button that is message `msg_id` in some language (the public
    buttons speak the table's language)."""
    words = in_any(msg_id)
    return next((label for label in labels(msg) if label in words), None)


def _prefix(say: Say, msg_id: str, **args: Any) -> str:
    """The fixed start of a label with a card in it ("Declare — discard …")."""
    return say(msg_id, card="\x00", **args).split("\x00")[0]


async def open_hand(fake: FakeDiscord, user: str) -> StoredMessage:
    """Press “Your hand” on the table message, as a player would; returns the private view.
    The table is shown after the change that started it: wait for it, as a player would."""

    def table_message() -> StoredMessage | None:
        return next(
            (
                m
                for m in reversed(fake.public_messages("general"))
                if label_of(m, "button-your-hand") is not None
            ),
            None,
        )

    table_msg = await fake.wait_for(table_message, 60, message="no table message to click")
    assert table_msg is not None
    result = await fake.click(user, table_msg, label=label_of(table_msg, "button-your-hand"))
    view = await result.reply()
    assert view.ephemeral, "a hand view must be private"
    return fake.message(view.id)


async def act(
    fake: FakeDiscord,
    user: str,
    view: StoredMessage,
    *,
    label: str | None = None,
    values: list[str] | None = None,
    placeholder: str | None = None,
) -> StoredMessage:
    """Click a button (or pick from a menu) in a private view and wait for the view to update."""
    before = len(fake.message(view.id).edits)
    if values is not None:
        await fake.select(user, view, values, placeholder=placeholder)
    else:
        await fake.click(user, view, label=label)
    await fake.wait_for(lambda: len(fake.message(view.id).edits) > before)
    await fake.settle(quiet=0.1)
    return fake.message(view.id)


async def wait_for_turn(fake: FakeDiscord, user: str, view: StoredMessage) -> StoredMessage:
    """Wait until the player's own view says it is their turn (the bot pushes it); press
    Refresh if it does not arrive, as a player would."""

    def my_turn() -> bool:
        return "Your turn" in fake.message(view.id).text()

    try:  # not a deadline: a short look, then what a player would do (press Refresh)
        await fake.wait_for(my_turn, timeout=3)
    except TimeoutError:
        view = await act(fake, user, fake.message(view.id), label="Refresh")
        await fake.wait_for(my_turn)
    return fake.message(view.id)


async def play_turn(fake: FakeDiscord, user: str, view: StoredMessage) -> StoredMessage:
    """Draw from the stock, then declare if the view offers it, else discard the card the
    menu says leaves the least deadwood. Uses only what the player's own view shows."""
    view = await wait_for_turn(fake, user, view)
    if enabled(view, "Draw from stock"):
        view = await act(fake, user, view, label="Draw from stock")
    declare = label_starting(view, "Declare — discard")
    if declare is not None and enabled(view, "Declare — discard"):
        return await act(fake, user, view, label=declare)
    options = select_options(view, "Discard a card")
    assert options, f"{user} has no discard menu:\n{fake.render(view)}"
    best = min(options, key=deadwood_of)
    return await act(fake, user, view, values=[best["value"]], placeholder="Discard a card…")


# =====================================================================================
# Whole games: a table driver that plays every human seat through its own views only.
# =====================================================================================

PING_RE = re.compile(r"<@(\d+)>")
RESULTS_TITLE_RES = shaped("results-title", deal=r"(\d+)")
PING_RES = [
    *shaped("turn-ping", mention=r"<@\d+>"),
    *shaped("turn-ping-timer", mention=r"<@\d+>", when=r"<t:\d+:R>"),
    *shaped("turn-warning", mention=r"<@\d+>"),
]
MATCH_OVER_RES = [
    *shaped("results-match-over", winners=".*"),
    *shaped("results-match-over-none"),
]
# A card as the bot renders it: `7♥`, `10♠`, `Q♦*` (wild), `🃏` (printed joker).
CARD_RE = re.compile(r"(?:10|[2-9AJQK])[♠♥♦♣]|🃏")


def results_deal(msg: StoredMessage) -> int | None:
    """The deal number of a results message (its embed's title says which deal)."""
    for e in msg.embeds:
        for title in RESULTS_TITLE_RES:
            m = title.fullmatch(e.get("title") or "")
            if m:
                return int(m.group(1))
    return None


def footer(msg: StoredMessage) -> str:
    return " ".join((e.get("footer") or {}).get("text", "") for e in msg.embeds)


def embed_field(msg: StoredMessage, name: str) -> str | None:
    """The value of the embed field called `name` (English), or called what catalogue
    message `name` says in some language ("table-recent")."""
    names = in_any(name) if name in catalogue().ids() else {name}
    for e in msg.embeds:
        for f in e.get("fields") or []:
            if f.get("name") in names:
                return str(f.get("value", ""))
    return None


def is_match_over(msg: StoredMessage) -> bool:
    if results_deal(msg) is None:
        return False
    parts = footer(msg).split(" · ")
    return any(shape.fullmatch(part) for shape in MATCH_OVER_RES for part in parts)


def is_ping(msg: StoredMessage) -> bool:
    return not msg.embeds and any(shape.fullmatch(msg.content) for shape in PING_RES)


def has_select(msg: StoredMessage, placeholder: str) -> bool:
    return any(
        c.get("type") == 3 and c.get("placeholder") == placeholder and not c.get("disabled")
        for c in msg.iter_components()
    )


def table_message(fake: FakeDiscord, channel: str = "general") -> StoredMessage:
    """The live public table (an embed with the “Your hand” button)."""
    found = find_table_message(fake, channel)
    assert found is not None, "no table message with a “Your hand” button"
    return found


def find_table_message(fake: FakeDiscord, channel: str = "general") -> StoredMessage | None:
    return next(
        (
            m
            for m in reversed(fake.public_messages(channel))
            if m.embeds and label_of(m, "button-your-hand") is not None
        ),
        None,
    )


def recent_log(fake: FakeDiscord, channel: str = "general") -> list[str]:
    """The public “Recent” lines of the newest table message (any state)."""
    for m in reversed(fake.public_messages(channel)):
        value = embed_field(m, "table-recent")
        if value is not None and results_deal(m) is None:
            return value.splitlines()
    return []


def all_public_text(fake: FakeDiscord, channel: str = "general") -> str:
    """Every public message of the channel, including every earlier version of each."""
    out = []
    for m in fake.public_messages(channel):
        for snap in m.edits:
            out.append(json.dumps(snap, ensure_ascii=False))
        out.append(m.text())
    return "\n".join(out)


def forge_interaction(
    fake: FakeDiscord,
    user: str,
    message: StoredMessage,
    custom_id: str,
    *,
    values: list[str] | None = None,
) -> Any:
    """Register a component interaction with a custom_id the user's client never showed them.

    Discord (and the fake's driver) only lets a user click components that exist on a message
    they can see, and discord.py ignores a click whose component is not on the message it came
    with. So another player's ephemeral controls, or controls for a turn that is not yours,
    cannot be reached honestly. A tampered client is the only way: it claims a click on a
    message it can see (``message``) carrying the forged component. `send_forged` sends it,
    with the component grafted into the message payload, to prove the bot's own guards refuse.
    """
    from tests.fakediscord.server import IT_COMPONENT

    u = fake.user(user)
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2}
    if values is not None:
        data = {"custom_id": custom_id, "component_type": 3, "values": values}
    chan = fake.server.channels[message.channel_id]
    return fake.server.create_interaction(IT_COMPONENT, u, chan, data, source_message=message)


async def send_forged(fake: FakeDiscord, rec: Any) -> Any:
    from tests.fakediscord import InteractionResult

    server = fake.server
    original = server.interaction_payload
    cid = rec.data["custom_id"]
    if rec.data["component_type"] == 2:
        comp = {"type": 2, "style": 2, "label": "forged", "custom_id": cid}
    else:
        opts = [{"label": v, "value": v} for v in rec.data["values"]]
        comp = {"type": 3, "custom_id": cid, "options": opts, "min_values": 1, "max_values": 1}

    def payload(r: Any) -> dict[str, Any]:
        body = original(r)
        if r is rec and "message" in body:
            body["message"]["components"] = [
                *body["message"].get("components", [])[:4],
                {"type": 1, "components": [comp]},
            ]
        return body

    server.interaction_payload = payload  # type: ignore[method-assign]
    try:
        await server.dispatch_interaction(rec)
    finally:
        server.interaction_payload = original  # type: ignore[method-assign]
    result = InteractionResult(fake, rec)
    await result.wait()
    return result


async def answered(fake: FakeDiscord, result: Any, timeout: float = DEADLINE) -> None:
    """Wait until the bot has finished answering an interaction: acknowledged, and (after a
    deferred update) the edit or follow-up made through its token has landed."""
    rec = result.record
    start = 0

    def done() -> bool:
        if not rec.acknowledged:
            return False
        if rec.response_type not in (5, 6):
            return True
        return any(
            path.startswith("/webhooks/") and rec.token in path and method in ("PATCH", "POST")
            for method, path, _status in fake.server.request_log[start:]
        )

    await fake.wait_for(done, timeout, message=lambda: f"bot never finished answering {rec.id}")


class Strategy:
    """How a seat plays, reading only its own view: draw from the stock, declare if the view
    offers it, else discard the card the menu says leaves the least deadwood."""

    def choose(self, view: StoredMessage, say: Say = ENGLISH) -> tuple[str, Any] | None:
        """The next move on this view; `say` is the player's language (their labels)."""
        rummy, draw = say("button-hand-rummy"), say("button-draw")
        discard, honor = say("menu-discard"), say("menu-declare")
        if enabled(view, rummy):
            return ("click", rummy)
        if enabled(view, draw):
            return ("click", draw)
        options = select_options(view, discard)
        if not options or not has_select(view, discard):
            return None
        starts = _prefix(say, "button-declare")
        declare = label_starting(view, starts)
        if declare is not None and enabled(view, starts):
            return ("click", declare)
        if has_select(view, honor):  # honor mode: the player lays out
            winning = [o for o in options if deadwood_of(o) < 0]
            if winning:
                return ("select", (honor, winning[0]["value"]))
        best = min(options, key=deadwood_of)
        return ("select", (discard, best["value"]))


class TableDriver:
    """Plays a match from the lobby to the result as the human users, through their views.

    Whose turn it is comes from the public turn ping (it mentions the player); the player then
    opens (or refreshes) their own private view and plays from what it shows.
    """

    def __init__(
        self,
        fake: FakeDiscord,
        humans: list[str],
        channel: str = "general",
        *,
        strategy: Strategy | None = None,
        silent: set[str] | frozenset[str] = frozenset(),
        click_next: bool = True,
    ) -> None:
        self.fake = fake
        self.humans = humans
        self.channel: str | int = channel
        self.strategy = strategy or Strategy()
        #: Players whose Discord is not in English (their views are in their language).
        self.languages: dict[str, str] = {}
        #: The table's language when a test chose it with `/rummy settings` (None: the
        #: server's Discord language, as the bot decides by default).
        self.server_language: str | None = None
        self.silent = set(silent)
        self.click_next = click_next
        self.views: dict[str, int] = {}
        self.handled: set[int] = set()
        self.turns = 0
        self.next_clicks = 0
        self.moves: list[tuple[str, str]] = []
        self.lobby: StoredMessage | None = None

    # ---- lobby ---------------------------------------------------------------------------

    async def open(self, host: str, *, ai: list[str] = (), **options: Any) -> StoredMessage:  # type: ignore[assignment]
        fake = self.fake
        result = await fake.slash(host, self.channel, "rummy new", **options)
        assert result.message is not None and not result.ephemeral, result
        lobby = result.message
        for user in self.humans:
            if user != host:
                here = fake.message(lobby.id)
                r = await fake.click(user, here, label=label_of(here, "button-join"))
                assert r.ephemeral and r.text == self.words(user)("done-joined"), r
        for tier in ai:
            r = await fake.select(
                host, fake.message(lobby.id), [tier], placeholder=self.public("menu-add-ai")
            )
            assert r.ephemeral, r
        await fake.wait_for(
            lambda: (
                fake.render(lobby.id).count("\n") >= 0
                and all(u in fake.render(lobby.id) for u in self.humans)
            ),
            message=lambda: f"lobby does not list everyone:\n{fake.render(lobby.id)}",
        )
        self.lobby = fake.message(lobby.id)
        return self.lobby

    async def start(self, host: str) -> None:
        """Start the match, and follow the table to where it plays: the thread the bot
        started from the lobby message, or the channel itself."""
        assert self.lobby is not None
        lobby = self.fake.message(self.lobby.id)
        r = await self.fake.click(host, lobby, label=label_of(lobby, "button-start"))
        await r.wait()
        assert r.ephemeral and r.text == self.words(host)("done-started"), r
        await self.fake.wait_for(self._placed, message="the table never showed up")

    def _placed(self) -> bool:
        assert self.lobby is not None
        thread = self.fake.thread_of(self.lobby)
        if thread is not None:
            self.channel = thread.id
            return True
        return find_table_message(self.fake, self.channel) is not None

    # ---- the match -----------------------------------------------------------------------

    def _next_event(self) -> tuple[str, StoredMessage] | None:
        msgs = self.fake.public_messages(self.channel)
        for m in reversed(msgs):
            if is_match_over(m):
                return ("over", m)
        for m in msgs:
            if m.id in self.handled:
                continue
            if results_deal(m) is not None and label_of(m, "button-next-deal") is not None:
                return ("results", m)
            if is_ping(m):
                return ("ping", m)
        return None

    async def play(
        self,
        max_turns: int = 400,
        timeout: float = DEADLINE,
        stop_after: int | None = None,
        until: Callable[[], bool] | None = None,
    ) -> StoredMessage | None:
        """Play until the match is over and return the final results message (or return None
        once `stop_after` turns have been played in all, or when `until()` holds)."""
        while True:
            if stop_after is not None and self.turns >= stop_after:
                return None
            if until is not None and until():
                return None
            kind, msg = await self.fake.wait_for(
                self._next_event,
                timeout,
                message=lambda: (
                    "the match stalled; channel:\n"
                    + self.fake.screen(self.humans[0], self.channel)[-3000:]
                ),
            )
            if kind == "over":
                # The match's end is shown after its results (in order, in the background of
                # the last move): wait until the table message has closed too.
                await self.fake.wait_for(
                    lambda: find_table_message(self.fake, self.channel) is None,
                    timeout,
                    message="the table message never showed the match over",
                )
                await self.fake.settle(quiet=0.2)
                return msg
            self.handled.add(msg.id)
            if kind == "results":
                if self.click_next:
                    await self.next_deal(msg)
                continue
            uid = int(PING_RE.search(msg.content).group(1))  # type: ignore[union-attr]
            user = self.fake.user(uid).name
            if user in self.silent or user not in self.humans:
                continue
            await self.take_turn(user, msg)
            self.turns += 1
            assert self.turns <= max_turns, "too many turns"

    async def next_deal(self, results: StoredMessage) -> None:
        """Everyone still in the match presses “Next deal” on the results message."""
        standings = embed_field(results, "results-standings") or ""
        marks = in_any("standing-out") | in_any("standing-left")
        for user in self.humans:
            out = any(
                line.startswith(f"{user}:") and any(mark.strip() in line for mark in marks)
                for line in standings.splitlines()
            )
            if out or user in self.silent:
                continue
            current = self.fake.message(results.id)
            label = label_of(current, "button-next-deal")
            if label is None:
                break
            r = await self.fake.click(user, current, label=label)
            await r.wait()
            assert r.ephemeral, r
            self.next_clicks += 1

    async def view_of(self, user: str, ping: StoredMessage | None = None) -> StoredMessage:
        """The user's private view: refreshed in place if they have one, else opened fresh."""
        fake = self.fake
        vid = self.views.get(user)
        if vid is not None and not fake.message(vid).deleted:
            return await self.act(
                user, fake.message(vid), "click", self.words(user)("button-refresh")
            )
        source = ping if ping is not None and not fake.message(ping.id).deleted else None
        if source is None:
            source = await fake.wait_for(lambda: find_table_message(fake, self.channel))
        source = fake.message(source.id)
        r = await fake.click(user, source, label=label_of(source, "button-your-hand"))
        view = await r.reply()
        assert view.ephemeral, r
        self.views[user] = view.id
        return fake.message(view.id)

    def words(self, user: str) -> Say:
        """A player's own language: as the test set it, else their Discord client's."""
        chosen = self.languages.get(user) or self.fake.user(user).locale
        return words_in(catalogue().resolve(chosen))

    def public(self, msg_id: str, **args: Any) -> str:
        """A public text in the table's language (`server_language`, else the server's own)."""
        language = self.server_language or self.fake.server.guild_locale(None)
        return words_in(catalogue().resolve(language))(msg_id, **args)

    async def act(self, user: str, view: StoredMessage, how: str, what: Any) -> StoredMessage:
        fake = self.fake
        if how == "click":
            r = await fake.click(user, view, label=what)
        else:
            placeholder, value = what
            r = await fake.select(user, view, [value], placeholder=placeholder)
        await answered(fake, r)
        return fake.message(view.id)

    async def take_turn(self, user: str, ping: StoredMessage | None = None) -> None:
        view = await self.view_of(user, ping)
        for _ in range(8):
            choice = self.strategy.choose(view, self.words(user))
            if choice is None:
                return
            how, what = choice
            self.moves.append((user, what if how == "click" else f"{what[0]} {what[1]}"))
            view = await self.act(user, view, how, what)
        raise AssertionError(f"{user}'s turn did not end:\n{self.fake.render(view)}")


# =====================================================================================
# Hidden-information audit: every message, at the moment Discord stores it.
# =====================================================================================


def _subcommand(data: dict[str, Any]) -> str | None:
    options = data.get("options") or []
    if data.get("name") == "rummy" and options and options[0].get("type") == 1:
        return str(options[0]["name"])
    return None


#: The table a game component belongs to, in its custom id (`bot.discord_ui.clicks`).
_TABLE_IN_ID = re.compile(r'"r[ms]:([0-9a-z]{4,16}):')


def _card_tokens(obj: Any) -> list[str]:
    return CARD_RE.findall(json.dumps(obj, ensure_ascii=False))


class HiddenCardAudit:
    """Checks every message the bot creates or edits against the hands at that moment.

    A card face counts as leaked when it appears in a public message (content, embeds,
    components, attachment names) or in another player's ephemeral message while it is in
    some player's hand and has not been public in this deal or the previous one (indicator,
    every card ever thrown on the pile). Results messages may reveal the hands of their own deal,
    and only once that deal is over. The salt of the deal's shuffle commitment counts as leaked
    anywhere while that deal is played. In-process bots only (it reads the live table).
    """

    def __init__(self, fake: FakeDiscord, client: PapluBot) -> None:
        self.fake = fake
        self.client = client
        self.leaks: list[str] = []
        self.checked = 0
        self.results_checked = 0
        self._tables: dict[int, Any] = {}
        self._by_id: dict[str, Any] = {}  # every table seen live, by its id
        self._owners: dict[int, str] = {}  # a results message's table, once its buttons said
        self._deals: dict[str, list[Any]] = {}
        server = fake.server
        orig_create, orig_edit = server.create_message, server.edit_message

        def create_message(*args: Any, **kwargs: Any) -> StoredMessage:
            msg = orig_create(*args, **kwargs)
            self.check(msg)
            return msg

        def edit_message(msg: StoredMessage, *args: Any, **kwargs: Any) -> None:
            orig_edit(msg, *args, **kwargs)
            self.check(msg)

        server.create_message = create_message  # type: ignore[method-assign]
        server.edit_message = edit_message  # type: ignore[method-assign]

    def _table(self, channel_id: int) -> Any:
        live = self.client.tables.registry.here(channel_id)  # a channel, or a table's thread
        if live is not None:
            self._tables[channel_id] = live
            self._by_id[live.id] = live
        return self._tables.get(channel_id)

    def _results_table(self, msg: StoredMessage, live: Any) -> Any:
        """The table whose results `msg` shows: the one its buttons name (`rm:<table>:…`), or
        named when it was first seen (an edit may drop the buttons). A match's last results
        are posted and edited after the commit, in the background, so on a slow machine they
        can land after the channel's next table started: judged against that table, its
        deal 1 had not ended yet."""
        named = self._owners.get(msg.id)
        if named is None:
            named = next(iter(_TABLE_IN_ID.findall(json.dumps(msg.components))), None)
            if named is not None:
                self._owners[msg.id] = named
        return self._by_id.get(named, live) if named is not None else live

    def _known(self, table: Any) -> set[str]:
        from bot.engine.states import SeatStatus
        from bot.words.cards import card, code_to_pretty

        m = table.match
        deals = self._deals.setdefault(table.id, [])
        if m.deal is not None and (not deals or deals[-1] is not m.deal):
            deals.append(m.deal)
        known: set[str] = set()
        # The paplu seating draw uses a deck of its own, shown to everyone before deal 1.
        for round_ in m.seating:
            known.update(code_to_pretty(code) for code in round_.values())
        for deal in deals[-2:]:
            if deal.indicator is not None:
                known.add(card(deal.indicator))
            known.update(card(e.card) for e in deal.pile_log)
            if deal is not m.deal or deal.over:
                # A finished deal's results reveal every hand still held at its end (dropped
                # hands stay face down), so a view of that deal may show them.
                for seat, hand in deal.hands.items():
                    if deal.status[seat] is SeatStatus.ACTIVE:
                        known.update(card(c) for c in hand)
        return known

    def check(self, msg: StoredMessage) -> None:
        from bot.engine.match import MatchPhase
        from bot.words.cards import card

        if msg.author_id != self.fake.bot_user.id:
            return
        rec = self.fake.server.interactions.get(msg.interaction_id or 0)
        if rec is not None and _subcommand(rec.data) == "check":
            return  # `/rummy check` rules on cards the user typed in, shown only to them
        table = self._table(msg.channel_id)
        number = results_deal(msg)
        if number is not None:
            table = self._results_table(msg, table)
        if table is None or table.match is None:
            return
        self.checked += 1
        m = table.match
        surface = {
            "content": msg.content,
            "embeds": msg.embeds,
            "components": msg.components,
            "attachments": msg.attachment_names,
        }
        seen_by = f"ephemeral to {msg.visible_to}" if msg.ephemeral else "public"
        where = f"message {msg.id} ({seen_by})"
        if number is not None:
            self.results_checked += 1
            if len(m.results) < number:
                self.leaks.append(f"{where}: results of deal {number} before it ended")
            return
        deal = m.deal
        known = self._known(table)
        if m.phase is not MatchPhase.PLAYING or deal is None or deal.over:
            return
        if deal.salt is not None and deal.salt in json.dumps(surface, default=str):
            self.leaks.append(f"{where}: the shuffle salt of the deal being played")
        hidden = {s: {card(c) for c in deal.hands[s]} for s in deal.seats}
        viewer = None if msg.visible_to is None else table.engine_seat(msg.visible_to)
        own = hidden.get(viewer, set()) if viewer is not None else set()
        secret = set().union(*(h for s, h in hidden.items() if s != viewer)) - known - own
        for token in _card_tokens(surface):
            if token in secret:
                owners = [m.players[s].name for s, h in hidden.items() if token in h]
                self.leaks.append(f"{where}: {token} (in the hand of {owners}) in {msg.text()!r}")


# =====================================================================================
# Environments
# =====================================================================================


class Env:
    def __init__(self, fake: FakeDiscord, client: PapluBot, audit: HiddenCardAudit) -> None:
        self.fake = fake
        self.bot = client
        self.audit = audit

    def table(self, channel: str = "general") -> Any:
        """The open table of the channel (None once closed)."""
        return self.bot.tables.registry.by_channel.get(self.fake.channel(channel).id)

    def last_table(self, channel: str = "general") -> Any:
        """The channel's table object, open or closed (as the audit last saw it)."""
        return self.table(channel) or self.audit._tables.get(self.fake.channel(channel).id)

    async def finish(self) -> None:
        """The Discord-rule audit and the hidden-card audit, for the whole scenario."""
        violations = await self.fake.wait_idle()
        assert violations == [], "Discord rule violations:\n" + "\n".join(map(str, violations))
        assert self.audit.leaks == [], "hidden cards shown:\n" + "\n".join(self.audit.leaks)
        assert self.fake.server.unknown_routes == [], self.fake.server.unknown_routes


@contextlib.asynccontextmanager
async def game_env(
    tmp_path: Path,
    users: list[str],
    seed: int | None = 7,
    *,
    edit_interval: float | None = 0.1,
    bot_permissions: int | None = None,
    channels: tuple[str, ...] = ("general",),
    **kw: Any,
) -> AsyncIterator[Env]:
    """The real bot in-process with both audits installed; checks them on a clean exit.

    Scripted players are much faster than people, and the bot coalesces edits of the public
    table to one a second, so a whole test game could otherwise pass with the table drawn only
    at its start and end. `edit_interval` shortens that pause (a tuning constant, not logic) so
    the hidden-card audit sees the table in many more intermediate states; None keeps 1 s.
    """
    import bot.discord_ui.presenter

    saved = bot.discord_ui.presenter.EDIT_INTERVAL
    if edit_interval is not None:
        bot.discord_ui.presenter.EDIT_INTERVAL = edit_interval
    try:
        async with FakeDiscord(
            users=users, channels=list(channels), token=TOKEN, bot_permissions=bot_permissions
        ) as fake:
            client = PapluBot(settings(tmp_path / "bot.sqlite3", seed, **kw))
            scripted_pace(fake, client=client)
            audit = HiddenCardAudit(fake, client)
            async with fake.running(client):
                await fake.wait_for_commands("rummy")
                env = Env(fake, client, audit)
                yield env
                await env.finish()
    finally:
        bot.discord_ui.presenter.EDIT_INTERVAL = saved


class ScaledClock:
    """Wall-clock time running `factor` times faster from now on (a `bot.table` Clock)."""

    def __init__(self, factor: float) -> None:
        import time

        self.factor = factor
        self.t0 = time.time()

    def now(self) -> float:
        import time

        return self.t0 + (time.time() - self.t0) * self.factor

    async def sleep(self, seconds: float) -> None:
        import asyncio

        await asyncio.sleep(seconds / self.factor)


#: Scripted players act about ten times faster than people (a whole deal in a few seconds).
SCRIPTED_PACE = 10.0


def scripted_pace(
    fake: FakeDiscord, factor: float = SCRIPTED_PACE, client: PapluBot | None = None
) -> None:
    """Run the fake's rate-limit windows `factor` times faster, so that Discord's limits
    (5 messages per 5 s per channel, 50 requests per second) meet scripted players at the
    pace they would meet people: the limits are still enforced and every 429 still fails a
    test, but a scripted game is not stretched to ten times a human's length. The in-process
    bot's own budget (its share of the global limit) is scaled alike, so it is not "short"
    at a pace that is only a person's pace sped up."""
    if client is not None:
        client.budget.share *= factor
    limits = fake.server.rate_limits
    limits.global_period /= factor
    limits.routes = {
        key: RouteLimit(r.limit, r.period / factor, r.bucket) for key, r in limits.routes.items()
    }


def fast_turn_clock(
    monkeypatch: Any, client: PapluBot, factor: float, fake: FakeDiscord | None = None
) -> None:
    """Run the bot's turn clocks `factor` times faster, in-process, through the table
    service's injectable clock: a 30 s turn timer (the shortest the command allows is 15 s)
    expires after 30/factor real seconds, with its 15 s warning at the same proportion.

    With `fake`, its rate-limit windows run as fast: a game played 15 times faster meets
    Discord's per-channel limits (5 messages per 5 s) 15 times sooner, and a compressed
    clock must not turn a normal pace into a flood."""
    monkeypatch.setattr(client.tables.scheduler, "clock", ScaledClock(factor))
    if fake is not None:
        scripted_pace(fake, factor)
