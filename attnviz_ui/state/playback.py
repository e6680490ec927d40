"""The step slider's play button as a small state machine, apart from any widget.

A page run shows one step. While playing, each run shows the next step and asks for another
run after a pause; the last step stops it. Play pressed on the last step starts again from the
first. A new sentence is shown paused: an example at its last step, a sentence typed at its
first. Steps are 1-based, as the slider shows them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from attnviz.i18n import N_

# The button's faces: a label and a Material icon, which Streamlit draws in its own font (the
# "⏸" character has no glyph in the fonts of a Debian Chromium: it drew as an empty box).
PLAY = (N_("Play"), ":material/play_arrow:")
PAUSE = (N_("Pause"), ":material/pause:")


@dataclass(frozen=True)
class Playback:
    step: int = 1  # the step shown, 1-based
    playing: bool = False
    restart: bool = False  # the next run goes back to step 1 (play pressed on the last step)
    to_last: bool = False  # the next run shows the last step (an example, shown finished)


def new_sentence() -> Playback:
    """A new sentence, before it is decoded: shown finished, at its last step, so that the
    whole translation and its alignment are seen at once (issue 63: a student took the first
    step's one word for the translation); Play replays it from step 1."""
    return Playback(to_last=True)


def before_run(p: Playback, steps: int) -> Playback:
    """The step this run shows out of ``steps``: step 1 after a restart, the last after a new
    example, the next step while playing, never past the last."""
    step = 1 if p.restart else steps if p.to_last else p.step + 1 if p.playing else p.step
    return Playback(min(step, steps), p.playing)


def toggled(p: Playback, steps: int) -> Playback:
    """Play or pause pressed on step ``p.step``."""
    playing = not p.playing
    return Playback(p.step, playing, playing and p.step >= steps)


def face(playing: bool) -> tuple[str, str]:
    """The button's label (to translate) and icon: Pause while playing, else Play."""
    return PAUSE if playing else PLAY


def after_run(p: Playback, steps: int) -> tuple[Playback, bool]:
    """The state once the page is drawn, and whether to run again after a pause: playing
    stops on the last step."""
    if p.playing and p.step >= steps:
        return replace(p, playing=False), False
    return p, p.playing
