"""The handout command of each README runs as written, on the lesson files that ship."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from attnviz.cli.main import main

ROOT = Path(__file__).resolve().parents[2]


def _handout_command(readme: str) -> list[str]:
    """The arguments of the README's ``python -m attnviz handout ...``, joined across lines."""
    text = (ROOT / readme).read_text(encoding="utf-8")
    found = re.search(r"`python -m attnviz (handout [^`]+)`", text)
    assert found, f"{readme} gives no handout command"
    return shlex.split(found.group(1))


@pytest.mark.slow
@pytest.mark.parametrize("readme", ["README.md", "README.zh.md"])
def test_the_readme_s_handout_command_writes_a_page_per_line_of_its_lesson(
    readme, tmp_path, monkeypatch
):
    argv = _handout_command(readme)
    out = argv.index("--out") + 1
    argv[out] = str(tmp_path / "handout")
    monkeypatch.chdir(ROOT)  # the paths are the repository's, as the README is read there
    assert main([*argv, "--precision", "fp32"]) == 0
    lesson = ROOT / argv[1]
    sentences = [line for line in lesson.read_text("utf-8").splitlines() if line.strip()]
    assert len(list((tmp_path / "handout").glob("sentence-*.html"))) == len(sentences)
