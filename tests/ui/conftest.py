"""The dashboard's fixtures: a checkpoints folder as shipped, and the dashboard open on it.

Only the tests in this folder load them; they need the dashboard's dependencies (streamlit, and
for ``test_browser.py`` Playwright and Chromium, see ``scripts/install-test-deps.sh``).
"""

from __future__ import annotations

import shutil

import pytest

from ..helpers import open_dashboard


@pytest.fixture(scope="module")
def checkpoints(trained, tmp_path_factory):
    """A checkpoints folder as shipped: bahdanau and luong (general), tiny and trained."""
    folder = tmp_path_factory.mktemp("checkpoints")
    shutil.copy(trained("bahdanau")[0], folder / "bahdanau.safetensors")
    shutil.copy(trained("general")[0], folder / "luong.safetensors")
    return folder


@pytest.fixture
def app(checkpoints, monkeypatch):
    """The dashboard in AppTest, on the tiny checkpoints, as a visitor first sees it."""
    at = open_dashboard(checkpoints, monkeypatch)
    assert not at.exception
    return at


@pytest.fixture(scope="module")
def two_directions(trained, chinese_trained, tmp_path_factory):
    """A checkpoints folder with a tiny en→fr pair and a tiny zh→en pair."""
    folder = tmp_path_factory.mktemp("two-directions")
    shutil.copy(trained("bahdanau")[0], folder / "bahdanau.safetensors")
    shutil.copy(trained("general")[0], folder / "luong.safetensors")
    shutil.copy(chinese_trained("bahdanau"), folder / "bahdanau-zh-en.safetensors")
    shutil.copy(chinese_trained("general"), folder / "luong-zh-en.safetensors")
    return folder
