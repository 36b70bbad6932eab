"""Browser test fixtures: one daemon and one Chromium for the session, a phone per test."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, sync_playwright

from tests.clients.web.harness import CHROMIUM, PHONE, Box


@pytest.fixture(scope="session")
def box(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Box]:
    b = Box(tmp_path_factory.mktemp("box"))
    try:
        yield b
    finally:
        b.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def phone(browser: Browser) -> Iterator[Any]:
    """A phone-sized browser context; page errors and any request off the box fail the test."""
    context = browser.new_context(**PHONE, locale="en-GB")
    errors: list[str] = []
    elsewhere: list[str] = []
    context.on("weberror", lambda e: errors.append(str(e.error)))
    context.on("request", lambda r: None if urlsplit(r.url).hostname == "127.0.0.1"
               else elsewhere.append(r.url))
    try:
        yield context
    finally:
        context.close()
    assert not errors, errors
    assert not elsewhere, elsewhere
