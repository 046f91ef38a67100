"""The fake Discord's referee: Discord's API document (`tests/fakediscord/openapi.py`) and the
documented limits it does not encode (`tests/fakediscord/limits.py`).

Each test plants one breach in a raw REST request (as any client could send it) and asserts
the violation *kind* the fake records, so removing a check fails its test. Where both the
document and the limits refuse the same thing (eleven embeds: the document's `maxItems`, and
the limit), both kinds are expected: each check is proven on its own. The message limits are
planted on every route that carries a message: a channel message and its edit, an interaction
response (callback type 4) and update (type 7), a followup and a webhook edit.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

import aiohttp
import pytest

from tests.fakediscord import FakeDiscord, InteractionRecord, openapi
from tests.fakediscord.server import (
    COMMAND_OPERATIONS,
    IT_COMMAND,
    IT_COMPONENT,
    MESSAGE_OPERATIONS,
)

TOKEN = "spec-token"
SCHEMA, LIMIT, COMMAND = "schema_violation", "invalid_payload", "invalid_command"


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(users=["alice"], channels=["general"], token=TOKEN) as f:
        yield f


async def send(
    fake: FakeDiscord,
    method: str,
    path: str,
    body: Any = None,
    *,
    form: aiohttp.FormData | None = None,
    raw: bytes | None = None,
    version: int = 10,
) -> int:
    """One REST call as a client makes it (JSON, a multipart form or raw bytes); its status."""
    url = f"{fake.server.url}/api/v{version}{path}"
    kwargs: dict[str, Any] = {"headers": {"Authorization": f"Bot {TOKEN}"}}
    if form is not None:
        kwargs["data"] = form
    elif raw is not None:
        kwargs["data"] = raw
        kwargs["headers"]["Content-Type"] = "application/json"
    elif body is not None:
        kwargs["json"] = body
    async with aiohttp.ClientSession() as session, session.request(method, url, **kwargs) as resp:
        await resp.read()
        return resp.status


def kinds(fake: FakeDiscord) -> list[str]:
    return [v.kind for v in fake.violations]


# ---------------------------------------------------------------------- message routes


@dataclass
class Targets:
    """Something for every message route to act on: a channel message, an acknowledged
    slash command (its response is `@original`), a button click on the channel message."""

    channel: int
    message: int
    command: InteractionRecord
    click: InteractionRecord


async def targets(fake: FakeDiscord) -> Targets:
    server = fake.server
    channel = fake.channel("general")
    alice = fake.user("alice")
    assert await send(fake, "POST", f"/channels/{channel.id}/messages", {"content": "x"}) == 200
    message = fake.public_messages("general")[-1]
    command = server.create_interaction(IT_COMMAND, alice, channel, {"name": "x"})
    click = server.create_interaction(
        IT_COMPONENT,
        alice,
        channel,
        {"custom_id": "b", "component_type": 2},
        source_message=message,
    )
    app = server.application_id
    assert (
        await send(fake, "POST", f"/interactions/{command.id}/{command.token}/callback", ack())
        == 204
    )
    assert await send(fake, "POST", f"/webhooks/{app}/{command.token}", {"content": "f"}) == 204
    assert kinds(fake) == []
    return Targets(channel.id, message.id, command, click)


def ack() -> dict[str, Any]:
    return {"type": 4, "data": {"content": "ok"}}


Route = Callable[[Targets, int], tuple[str, str]]

#: Each route that carries a message: (method, path) and how the message sits in its body.
MESSAGE_ROUTES: dict[str, tuple[Route, Callable[[dict[str, Any]], dict[str, Any]]]] = {
    "channel message": (
        lambda t, app: ("POST", f"/channels/{t.channel}/messages"),
        lambda m: m,
    ),
    "channel message edit": (
        lambda t, app: ("PATCH", f"/channels/{t.channel}/messages/{t.message}"),
        lambda m: m,
    ),
    "interaction response": (
        lambda t, app: ("POST", f"/interactions/{t.click.id}/{t.click.token}/callback"),
        lambda m: {"type": 4, "data": m},
    ),
    "interaction update": (
        lambda t, app: ("POST", f"/interactions/{t.click.id}/{t.click.token}/callback"),
        lambda m: {"type": 7, "data": m},
    ),
    "followup": (
        lambda t, app: ("POST", f"/webhooks/{app}/{t.command.token}"),
        lambda m: m,
    ),
    "webhook edit": (
        lambda t, app: ("PATCH", f"/webhooks/{app}/{t.command.token}/messages/@original"),
        lambda m: m,
    ),
}
#: Where the document itself caps content at 2,000 (the channel routes allow 4,000).
CONTENT_DOCUMENTED = {"interaction response", "interaction update", "followup", "webhook edit"}


async def send_message(fake: FakeDiscord, route: str, message: dict[str, Any]) -> int:
    t = await targets(fake)
    where, wrap = MESSAGE_ROUTES[route]
    method, path = where(t, fake.server.application_id)
    return await send(fake, method, path, wrap(message))


def button(custom_id: str, label: str = "b") -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


def select(custom_id: str, options: int) -> dict[str, Any]:
    return {
        "type": 3,
        "custom_id": custom_id,
        "options": [{"label": f"o{i}", "value": f"v{i}"} for i in range(options)],
    }


def row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


routes = pytest.mark.parametrize("route", list(MESSAGE_ROUTES))


@routes
async def test_a_valid_message_passes_on_every_route(fake: FakeDiscord, route: str) -> None:
    message = {
        "content": "hello",
        "embeds": [{"title": "t", "description": "d", "fields": [{"name": "n", "value": "v"}]}],
        "components": [row(button("a"), button("b")), row(select("s", 25))],
        "allowed_mentions": {"parse": []},
    }
    assert await send_message(fake, route, message) in (200, 204)
    assert kinds(fake) == []


@routes
async def test_a_wrong_type_in_a_message(fake: FakeDiscord, route: str) -> None:
    status = await send_message(fake, route, {"content": "x", "embeds": [{"color": "red"}]})
    assert status == 400 and kinds(fake) == [SCHEMA]
    assert "/embeds/0/color: 'red' is not of type 'integer', 'null'" in str(fake.violations[0])


@routes
async def test_content_over_2000_characters(fake: FakeDiscord, route: str) -> None:
    assert await send_message(fake, route, {"content": "x" * 2001}) == 400
    expected = [SCHEMA, LIMIT] if route in CONTENT_DOCUMENTED else [LIMIT]
    assert kinds(fake) == expected
    assert f"{route}: content: 2001 chars (max 2000)" in str(fake.violations[-1])


@routes
async def test_eleven_embeds(fake: FakeDiscord, route: str) -> None:
    assert await send_message(fake, route, {"embeds": [{"title": "t"}] * 11}) == 400
    assert kinds(fake) == [SCHEMA, LIMIT]  # the document's maxItems, and the limit
    assert "/embeds: 11 items (documented: at most 10)" in str(fake.violations[0])
    assert "embeds: 11 embeds (max 10)" in str(fake.violations[1])


@routes
async def test_embeds_over_6000_characters_together(fake: FakeDiscord, route: str) -> None:
    # Each field within its own limit; together 2 x (4096 + 256) = 8704 characters.
    embed = {"title": "t" * 256, "description": "d" * 4096}
    assert await send_message(fake, route, {"embeds": [embed, embed]}) == 400
    assert kinds(fake) == [LIMIT]
    assert "embeds: 8704 characters in total (max 6000)" in str(fake.violations[0])


@routes
async def test_an_embed_field_over_its_limit(fake: FakeDiscord, route: str) -> None:
    embed = {"fields": [{"name": "n", "value": "v" * 1025}]}
    assert await send_message(fake, route, {"embeds": [embed]}) == 400
    assert LIMIT in kinds(fake)
    assert "embeds[0].fields[0].value: 1025 chars (max 1024)" in str(fake.violations[-1])


@routes
async def test_six_action_rows(fake: FakeDiscord, route: str) -> None:
    rows = [row(button(f"b{i}")) for i in range(6)]
    assert await send_message(fake, route, {"components": rows}) == 400
    assert kinds(fake) == [LIMIT]  # the document allows 40 top-level components (layouts)
    assert "components: 6 action rows (max 5)" in str(fake.violations[0])


@routes
async def test_six_buttons_in_a_row(fake: FakeDiscord, route: str) -> None:
    buttons = row(*(button(f"b{i}") for i in range(6)))
    assert await send_message(fake, route, {"components": [buttons]}) == 400
    assert kinds(fake) == [SCHEMA, LIMIT]
    assert "/components/0/components: 6 items (documented: at most 5)" in str(fake.violations[0])
    assert "components[0]: 6 buttons (max 5)" in str(fake.violations[1])


@routes
async def test_a_select_sharing_its_row(fake: FakeDiscord, route: str) -> None:
    shared = row(select("s", 2), button("b"))
    assert await send_message(fake, route, {"components": [shared]}) == 400
    assert kinds(fake) == [LIMIT]
    assert "a select menu must be alone in its action row" in str(fake.violations[0])


@routes
@pytest.mark.parametrize("count", [0, 26])
async def test_select_options_outside_1_to_25(fake: FakeDiscord, route: str, count: int) -> None:
    assert await send_message(fake, route, {"components": [row(select("s", count))]}) == 400
    assert kinds(fake) == [SCHEMA, LIMIT]
    assert "/components/0/components/0/options" in str(fake.violations[0])
    limit = "string select without options" if count == 0 else "26 select options (max 25)"
    assert limit in str(fake.violations[1])


@routes
@pytest.mark.parametrize("length", [0, 101])
async def test_custom_id_outside_1_to_100(fake: FakeDiscord, route: str, length: int) -> None:
    message = {"components": [row(button("c" * length))]}
    assert await send_message(fake, route, message) == 400
    assert kinds(fake) == [SCHEMA, LIMIT]
    assert f"/components/0/components/0/custom_id: {length} characters" in str(fake.violations[0])
    assert f"custom_id must be 1-100 chars ({length})" in str(fake.violations[1])


@routes
async def test_a_duplicate_custom_id(fake: FakeDiscord, route: str) -> None:
    message = {"components": [row(button("same")), row(select("same", 2))]}
    assert await send_message(fake, route, message) == 400
    assert kinds(fake) == [LIMIT]
    assert "duplicate custom_id within one message" in str(fake.violations[0])


# ---------------------------------------------------------------------- the document


async def test_an_unknown_route(fake: FakeDiscord) -> None:
    channel = fake.channel("general").id
    assert await send(fake, "GET", f"/channels/{channel}/nonsense") == 404
    assert await send(fake, "GET", f"/channels/{channel}", version=9) == 404
    assert kinds(fake) == ["undocumented_route", "undocumented_route"]
    assert "no such route" in str(fake.violations[0])
    assert "not API v10" in str(fake.violations[1])


async def test_an_unknown_method_on_a_known_route(fake: FakeDiscord) -> None:
    t = await targets(fake)
    callback = f"/interactions/{t.click.id}/{t.click.token}/callback"
    assert await send(fake, "DELETE", callback) == 405
    assert kinds(fake) == ["undocumented_method"]
    assert "takes only POST" in str(fake.violations[0])


async def test_a_missing_required_field(fake: FakeDiscord) -> None:
    t = await targets(fake)
    threads = f"/channels/{t.channel}/messages/{t.message}/threads"
    assert await send(fake, "POST", threads, {"auto_archive_duration": 60}) == 400
    callback = f"/interactions/{t.click.id}/{t.click.token}/callback"
    assert await send(fake, "POST", callback, {"data": {"content": "no type"}}) == 400
    assert kinds(fake) == [SCHEMA, SCHEMA]
    assert "/: 'name' is a required property" in str(fake.violations[0])
    assert "/: 'type' is a required property" in str(fake.violations[1])


async def test_a_button_without_its_required_style(fake: FakeDiscord) -> None:
    t = await targets(fake)
    message = {"components": [row({"type": 2, "label": "b", "custom_id": "b"})]}
    assert await send(fake, "POST", f"/channels/{t.channel}/messages", message) == 400
    assert kinds(fake) == [SCHEMA]
    assert "/components/0/components/0: 'style' is a required property" in str(fake.violations[0])


async def test_bad_path_and_query_parameters(fake: FakeDiscord) -> None:
    channel = fake.channel("general").id
    assert await send(fake, "POST", "/channels/None/messages", {"content": "x"}) == 400
    assert await send(fake, "GET", f"/channels/{channel}/messages?limit=500") == 400
    assert await send(fake, "GET", f"/channels/{channel}/messages?newest=1") == 400
    assert kinds(fake) == [SCHEMA, SCHEMA, SCHEMA]
    assert "path channel_id='None'" in str(fake.violations[0])
    assert "query limit=500: 500 is greater than the maximum of 100" in str(fake.violations[1])
    assert "query newest: not a parameter of this route" in str(fake.violations[2])
    # Discord's boolean query strings: True/true/1, False/false/0.
    for flag in ("true", "True", "1", "false", "0"):
        assert await send(fake, "GET", f"/guilds/{fake.guild_id}?with_counts={flag}") == 200
    assert await send(fake, "GET", f"/guilds/{fake.guild_id}?with_counts=yes") == 400
    assert kinds(fake)[3:] == [SCHEMA]


async def test_a_body_where_none_belongs_and_none_where_one_must(fake: FakeDiscord) -> None:
    channel = fake.channel("general").id
    app = fake.application_id
    assert await send(fake, "POST", f"/channels/{channel}/typing", {"x": 1}) == 400
    assert await send(fake, "PUT", f"/applications/{app}/commands") == 400
    assert kinds(fake) == [SCHEMA, SCHEMA]
    assert "takes no request body" in str(fake.violations[0])
    assert "a request body is required" in str(fake.violations[1])


async def test_a_body_that_is_not_json(fake: FakeDiscord) -> None:
    channel = fake.channel("general").id
    assert await send(fake, "POST", f"/channels/{channel}/messages", raw=b"{content: x}") == 400
    assert kinds(fake) == ["invalid_json"]


def upload(payload_json: str, part: str = "files[0]") -> aiohttp.FormData:
    form = aiohttp.FormData()
    form.add_field("payload_json", payload_json, content_type="application/json")
    form.add_field(part, b"PNG", filename="a.png", content_type="image/png")
    return form


async def test_a_bad_payload_json_in_a_multipart_upload(fake: FakeDiscord) -> None:
    path = f"/channels/{fake.channel('general').id}/messages"
    good = {"content": "x", "attachments": [{"id": 0, "filename": "a.png"}]}
    assert await send(fake, "POST", path, form=upload(json.dumps(good))) == 200
    assert kinds(fake) == []
    assert await send(fake, "POST", path, form=upload("{not json")) == 400
    assert await send(fake, "POST", path, form=upload(json.dumps({"content": 5}))) == 400
    assert await send(fake, "POST", path, form=upload(json.dumps(good), part="file")) == 400
    assert kinds(fake) == ["invalid_json", SCHEMA, SCHEMA]
    assert "payload_json" in str(fake.violations[0])
    assert "payload_json: /content: 5 is not of type 'string', 'null'" in str(fake.violations[1])
    assert "multipart parts ['file']" in str(fake.violations[2])


# ---------------------------------------------------------------------- commands


def command(**extra: Any) -> dict[str, Any]:
    option = {"type": 3, "name": "profile", "description": "Game profile", "required": True}
    option.update(extra.pop("option", {}))
    return {"type": 1, "name": "rummy", "description": "Play", "options": [option], **extra}


COMMAND_ROUTES = ["bulk", "one", "guild bulk", "guild one", "edit", "guild edit"]


async def send_commands(fake: FakeDiscord, route: str, cmd: dict[str, Any]) -> int:
    app = fake.application_id
    base = f"/applications/{app}" + (f"/guilds/{fake.guild_id}" if "guild" in route else "")
    if route.endswith("bulk"):
        return await send(fake, "PUT", f"{base}/commands", [cmd])
    if route.endswith("one"):
        return await send(fake, "POST", f"{base}/commands", cmd)
    assert await send(fake, "PUT", f"{base}/commands", [command()]) == 200
    stored = fake.server.guild_commands[fake.guild_id] if "guild" in route else None
    command_id = (stored or fake.server.global_commands)[0]["id"]
    return await send(fake, "PATCH", f"{base}/commands/{command_id}", cmd)


command_routes = pytest.mark.parametrize("route", COMMAND_ROUTES)


@command_routes
async def test_a_valid_command_passes(fake: FakeDiscord, route: str) -> None:
    localized = {"description_localizations": {"hi": "खेलें"}, "name_localizations": {"hi": "खेल"}}
    assert await send_commands(fake, route, command(**localized)) in (200, 201)
    assert kinds(fake) == []


@command_routes
async def test_an_over_long_description_in_a_localisation(fake: FakeDiscord, route: str) -> None:
    option = {"description_localizations": {"hi": "x" * 101}}
    assert await send_commands(fake, route, command(option=option)) == 400
    assert kinds(fake) == [SCHEMA, COMMAND]
    assert "/description_localizations/hi: 101 characters" in str(fake.violations[0])
    assert "description_localizations[hi] must be 1-100 chars" in str(fake.violations[1])


@command_routes
async def test_an_over_long_name_in_a_localisation(fake: FakeDiscord, route: str) -> None:
    assert await send_commands(fake, route, command(name_localizations={"hi": "x" * 33})) == 400
    assert kinds(fake) == [SCHEMA, COMMAND]
    assert "name_localizations[hi] is not a valid name" in str(fake.violations[1])


@command_routes
async def test_twenty_six_choices(fake: FakeDiscord, route: str) -> None:
    choices = [{"name": f"c{i}", "value": f"v{i}"} for i in range(26)]
    assert await send_commands(fake, route, command(option={"choices": choices})) == 400
    assert kinds(fake) == [SCHEMA, COMMAND]
    assert "/choices: 26 items (documented: at most 25)" in str(fake.violations[0])
    assert "more than 25 choices" in str(fake.violations[1])


@command_routes
async def test_a_choice_value_over_100_characters(fake: FakeDiscord, route: str) -> None:
    choices = [{"name": "long", "value": "v" * 101}]  # the document allows 6,000
    assert await send_commands(fake, route, command(option={"choices": choices})) == 400
    assert kinds(fake) == [COMMAND]
    assert "value longer than 100 chars (101)" in str(fake.violations[0])


async def test_an_uppercase_option_name(fake: FakeDiscord) -> None:
    assert await send_commands(fake, "bulk", command(option={"name": "Profile"})) == 400
    assert kinds(fake) == [COMMAND]
    assert "invalid option name" in str(fake.violations[0])


async def test_autocomplete_and_modal_answers(fake: FakeDiscord) -> None:
    t = await targets(fake)
    callback = f"/interactions/{t.click.id}/{t.click.token}/callback"
    choices = [{"name": f"c{i}", "value": f"v{i}"} for i in range(26)]
    assert await send(fake, "POST", callback, {"type": 8, "data": {"choices": choices}}) == 400
    modal = {"custom_id": "m", "title": "t" * 46, "components": [row(button("x"))]}
    assert await send(fake, "POST", callback, {"type": 9, "data": modal}) == 400
    assert kinds(fake) == [SCHEMA, LIMIT, SCHEMA, LIMIT]
    said = [str(v) for v in fake.violations]
    assert "/data/choices: 26 items (documented: at most 25)" in said[0]
    assert "autocomplete: 26 autocomplete choices (max 25)" in said[1]
    assert "/data/title: 46 characters (documented: at most 45)" in said[2]
    assert "modal: title must be 1-45 chars (46)" in said[3]


# ---------------------------------------------------------------------- the tables


def test_every_checked_operation_is_in_the_document() -> None:
    """The limits are keyed by the document's operationId: a renamed operation would
    silently lose its checks."""
    ids = {op.operation_id for ops in openapi.api().operations.values() for op in ops.values()}
    assert set(MESSAGE_OPERATIONS) | set(COMMAND_OPERATIONS) <= ids
    assert "create_interaction_response" in ids


@pytest.mark.parametrize("deviation", openapi.DEVIATIONS, ids=lambda d: d.where)
def test_each_deviation_is_needed_and_narrow(deviation: openapi.Deviation) -> None:
    """Each deviation's example is refused by the document alone and accepted with the
    deviation (so it is still needed); a value of neither shape is still refused."""
    strict = openapi.load(deviations=())
    lenient = openapi.api()
    assert not strict.is_valid_at(deviation.where, deviation.example)
    assert lenient.is_valid_at(deviation.where, deviation.example)
    assert not lenient.is_valid_at(deviation.where, deviation.refused)


def test_rewrites_keep_what_the_document_accepts() -> None:
    """The speed-ups (enum, nullable, by-type) accept and refuse as the document does."""
    fast = openapi.api()
    message = "/components/schemas/MessageCreateRequest"
    cases: list[tuple[Any, bool]] = [
        ({"components": [row(button("a"))]}, True),
        ({"components": [row(select("s", 3))]}, True),
        ({"components": [row({"type": 2, "style": 9, "label": "x", "custom_id": "a"})]}, False),
        ({"components": [{"type": 99}]}, False),
        ({"components": [{"components": []}]}, False),
        ({"components": [row({"type": True, "style": 1, "custom_id": "a"})]}, False),
        ({"allowed_mentions": None, "message_reference": None}, True),
        ({"allowed_mentions": "none"}, False),
        ({"embeds": [{"footer": None, "author": {"name": "a"}}]}, True),
    ]
    plain = openapi.load(deviations=(), rewrite=False)
    for instance, valid in cases:
        assert fast.is_valid_at(message, instance) is valid, instance
        assert plain.is_valid_at(message, instance) is valid, instance


def test_a_component_checked_once_is_not_checked_blindly() -> None:
    """A component object accepted once is accepted again without a second look (the same
    JSON text), but only that text: a refused one is refused every time, with the schema's
    own error, and a changed one is checked afresh."""
    document = openapi.load()
    operation = document.resolve("POST", "/channels/1/messages")
    assert isinstance(operation, openapi.Operation)

    def problems(message: dict[str, Any], text: str) -> list[str]:
        body = openapi.Body("application/json", message, text=text)
        return [p.detail for p in document.check_body(operation, body)]

    good = {"components": [row(button("a"))]}
    bad = {"components": [row({"type": 2, "style": 9, "label": "x", "custom_id": "a"})]}
    # Each body once with its own text, so only the component's verdict can be reused.
    assert problems(good, "good once") == problems(good, "good again") == []
    first, again = problems(bad, "bad once"), problems(bad, "bad again")
    assert first == again and len(first) == 1 and "/components/0/components/0" in first[0]
    changed = {"components": [row(button("a", label="x" * 81))]}
    assert problems(changed, "changed") != []
