"""Interaction tokens never reach the logs, at any level."""

from __future__ import annotations

import logging

import pytest

from bot.discord_ui.logging_filters import REDACTED, RedactTokens, redact

TOKEN = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5MDpzZWNyZXQtdG9rZW4tdGV4dA"


def test_tokens_in_payloads_and_routes_are_redacted() -> None:
    payload = f'{{"t": "INTERACTION_CREATE", "d": {{"id": "1", "token": "{TOKEN}"}}}}'
    route = f"POST https://discord.com/api/v10/interactions/123/{TOKEN}/callback"
    hook = f"PATCH /webhooks/456/{TOKEN}/messages/@original"
    for text in (payload, route, hook):
        cleaned = redact(text)
        assert TOKEN not in cleaned and REDACTED in cleaned
    assert redact("nothing secret here") == "nothing secret here"


def test_the_filter_rewrites_records(caplog: pytest.LogCaptureFixture) -> None:
    logger = logging.getLogger("discord.gateway")
    caplog.handler.addFilter(RedactTokens())
    with caplog.at_level(logging.DEBUG, logger="discord.gateway"):
        logger.debug("received %s", {"token": TOKEN})
    assert TOKEN not in caplog.text and REDACTED in caplog.text
