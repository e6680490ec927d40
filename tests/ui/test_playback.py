"""The play button: one step further on each run, stopping at the last, restarting from it."""

from attnviz_ui.state.playback import Playback, after_run, before_run, new_sentence, toggled


def test_paused_shows_the_chosen_step_but_never_past_the_last():
    assert before_run(Playback(step=3), steps=5).step == 3
    assert before_run(Playback(step=7), steps=5).step == 5  # a shorter sentence was typed


def test_playing_moves_one_step_per_run_and_stops_on_the_last():
    p, steps, shown = Playback(step=1, playing=True), 3, []
    again = True
    while again:
        p = before_run(p, steps)
        shown.append(p.step)
        p, again = after_run(p, steps)
    assert shown == [2, 3]
    assert not p.playing


def test_play_on_the_last_step_starts_again_from_the_first():
    pressed = toggled(Playback(step=4), steps=4)
    assert pressed.playing and pressed.restart
    assert before_run(pressed, steps=4) == Playback(step=1, playing=True, restart=False)
    assert not toggled(Playback(step=2), steps=4).restart


def test_pause_stops_where_it_is():
    paused = toggled(Playback(step=2, playing=True), steps=4)
    assert not paused.playing and not paused.restart
    assert after_run(before_run(paused, 4), 4) == (Playback(step=2), False)


def test_a_new_sentence_opens_on_its_last_step_whole():
    finished = before_run(new_sentence(), steps=6)
    assert finished == Playback(step=6)
    assert before_run(finished, steps=6) == finished  # once: the slider moves freely after
    assert before_run(Playback(step=6, playing=True, to_last=True), 6) == Playback(6, True)


def test_play_on_a_finished_example_replays_it_from_the_first_step():
    shown = before_run(new_sentence(), steps=6)
    assert before_run(toggled(shown, steps=6), steps=6) == Playback(step=1, playing=True)
