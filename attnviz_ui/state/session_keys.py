"""The session-state keys, declared once (:class:`Key`), the keys of elements drawn once per
model (:func:`element_key`), the keys whose choices the language switch sets again
(:data:`TRANSLATED`), and those kept while another page is shown (:func:`keep_across_pages`)."""

from collections.abc import MutableMapping
from enum import StrEnum


class Key(StrEnum):
    """The session-state keys, each declared once and read through this enum: a widget's
    ``key=`` is its member, whose value is the key streamlit stores (unchanged since the keys
    were bare strings, so a session, a link or a test that names one still finds it). Keys
    built per model or per version are :func:`element_key`'s."""

    # The dashboard and its sidebar
    PAGE = "page"  # the page switch: a Page
    LESSON_STEP = "lesson_step"  # the Lesson page's step, 1-based (pages.lesson_page)
    LESSON_BACK = "lesson_back"  # its Back button
    LESSON_NEXT = "lesson_next"  # its Next button
    LESSON_AT = "lesson_at"  # the decoding step its Bahdanau and Luong screens share, 1-based
    LESSON_LENGTH = "lesson_length"  # its fixed-context screen: how many sentences joined
    DIRECTION = "direction"  # the sidebar: which languages the models translate between
    LANGUAGE = "language"  # the sidebar: the interface's language (attnviz_ui.widgets.language)
    SEARCH = "search"  # the sidebar: greedy or beam search
    PAGE_DIRECTION = "page_direction"  # the direction again, beside the sentence (widgets.mirror)
    PAGE_SEARCH = "page_search"  # the search again, in the beam view (widgets.mirror)
    LEFT_MODEL = "left_model"  # the sidebar: the left column's model, by name
    RIGHT_MODEL = "right_model"  # the sidebar: the right column's model, by name
    SHARE = "share"  # the Share popover beside the page switch (open or closed)
    ADDRESS = "address"  # the query parameters the page last wrote (pages.address_bar)
    LINK_STEP = "link_step"  # the step a link asked for, checked once the steps are known
    SHOWN_STEP = "shown_step"  # the step the stepping fragment showed this run, for the address
    RESTARTED = "restarted"  # whether this session replaced one a stopped replica held

    # The one-sentence page: the sentence and its view
    VIEW = "view"  # the view switch: a View
    EXAMPLES_OF = "examples_of"  # the direction (source, target) whose examples the page shows
    EXAMPLE = "example"  # the example picked, or sentence_page.OWN
    SENTENCE = "sentence"  # the sentence box
    REFERENCE = "reference"  # the reference box ("" for none)
    NEXT_REFERENCE = "next_reference"  # set by the compare view's buttons, put in the box next run
    TAUGHT_FORCE = "taught_force"  # the button that forces an example to the notes' wording
    GOLD = "gold"  # the GoldPair of a sentence opened from the corpus page
    PIECES = "pieces"  # "Show subword pieces"

    # The one-sentence page: stepping (attnviz_ui.state.playback says how these move)
    STEP = "step"  # the step slider, 1-based
    PLAYING = "playing"  # whether Play is on
    PLAYED = "played"  # Play stopped on the last step: the page drawn after it follows it too
    RESTART = "restart"  # Play pressed on the last step: start again from step 1
    TO_LAST = "to_last"  # show the next sentence finished (an example)
    PLAY = "play"  # the Play / Pause button
    SWITCHES = "switches"  # the popover that holds the step view's switches
    TRANSFORMER_HEAD = "transformer_head"  # the head To the Transformer draws large
    FINISHED = "finished"  # "Show the finished translation"
    NUMBERS = "numbers"  # "Show the numbers of this step"
    ATTRIBUTION_ON = "attribution_on"  # "Attribution beside attention"
    ATTRIBUTION_METHOD = "attribution_method"  # the attribution method beside attention
    EFLOMAL_ON = "eflomal_on"  # eflomal's links on the heatmaps
    CORPUS_ON = "corpus_on"  # "What the corpus says" below the step view

    # The one-sentence page: why attention
    WHY_FURTHER = "why_further"  # the sentences that grow the typed one, one per line
    WHY_LENGTH = "why_length"  # how many sentences are joined (1: the typed one alone)

    # The one-sentence page: what if…
    WHAT_IF = "what_if"  # which what-if: a what_if_view.WhatIf
    WHAT_IF_BASE = "what_if_base"  # another word: the model whose output is continued (0, 1)
    WHAT_IF_WORD = "what_if_word"  # another word: the word picked from the list
    WHAT_IF_TYPED = "what_if_typed"  # another word: the word typed
    WHAT_IF_MODEL = "what_if_model"  # attention elsewhere: the model edited (0, 1)
    WHAT_IF_EDIT = "what_if_edit"  # attention elsewhere: the edit, a what_if.Edit
    WHAT_IF_SOURCE = "what_if_source"  # attention elsewhere: the source word, 0-based
    WHAT_IF_HEAD = "what_if_head"  # attention elsewhere: a Transformer's head edited, 0-based

    # The one-sentence page: natural vs taught
    TAUGHT_MODEL = "taught_model"  # which chosen model's pair (0 left, 1 right)
    TAUGHT_DIFFERENCE = "taught-difference"  # the taught-minus-natural heatmap

    # The corpus page
    CORPUS_SOURCE = "corpus_source"  # where the sentences come from
    CORPUS_RUN = "corpus_run"  # the button that translates them
    CORPUS_RESULTS = "corpus_results"  # (what was scored, the scores by model name)
    CORPUS_STRAYS = "corpus_strays"  # rank by how far natural strays from taught
    CORPUS_STRAYS_RESULTS = "corpus_strays_results"  # (what was scored, the strays by column)
    CORPUS_ATTRIBUTION_METHOD = "corpus_attribution_method"  # the method of the comparison
    CORPUS_ATTRIBUTION_RUN = "corpus_attribution_run"  # the button that compares
    CORPUS_ATTRIBUTION = "corpus_attribution"  # (what was compared, the results by model name)
    CORPUS_PICK = "corpus_pick"  # the sentence to open, by its number
    CORPUS_OPEN = "corpus_open"  # the button that opens it on the one-sentence page

    # The training page: the chosen models' histories
    PROBE = "probe"  # the probe sentence, by its index
    MOMENT = "moment"  # the training-time slider: an epoch
    MOMENT_PLAYING = "moment_playing"  # whether its Play is on
    MOMENT_RESTART = "moment_restart"  # Play pressed on the last snapshot: start again
    MOMENT_PLAY = "moment_play"  # its Play / Pause button
    TRAINING_CURVES = "training-curves"  # the curves of validation loss, BLEU and AER

    # The training page: the live run
    LIVE_OWNER = "live_owner"  # this session's key among the server's live runs
    LIVE_FORM = "toy"  # the form of the toy run's settings
    LIVE_STOP = "live_stop"  # the Stop button
    LIVE_PROBE = "live_probe"  # the held-out sentence shown, by its index
    LIVE_POLLED = "live_polled"  # the start time of the run last redrawn while it trained
    LIVE_HEATMAP = "live-heatmap"  # its heatmap
    LIVE_CURVES = "live-curves"  # its curves


def element_key(element: str, part: int | str) -> str:
    """The key of an element drawn once per model (``part`` 0 left, 1 right) or per version
    on one page: ``ELEMENT-PART``, such as ``heatmap-0``. These keys only keep two charts or
    buttons apart (streamlit refuses one key twice on a page); no code reads them back, so each
    ELEMENT is named where it is drawn: ``heatmap``, ``compare-heatmap``, ``force-on``,
    ``beam``, ``taught-heatmap``, ``attribution-attention``, ``attribution-heatmap``,
    ``attribution-bars``, ``what-if-word``, ``what-if-att`` (part ``trained`` or ``edited``),
    ``history``, ``full-card`` (the cards view's "Full card": its tree drawn while it is open),
    and the export view's file names."""
    return f"{element}-{part}"


# The choices shown through a translating ``format_func``. Streamlit keeps a choice as its label,
# so after the language switch the label it holds is in the old language, matches no option,
# and comes back as a bare string (a KeyError where a Direction was looked up): the switch sets
# each of these again, as the value it holds, so that it is shown in the new language.
TRANSLATED = (
    Key.PAGE, Key.DIRECTION, Key.SEARCH, Key.EXAMPLE, Key.VIEW, Key.WHAT_IF, Key.WHAT_IF_EDIT,
    Key.ATTRIBUTION_METHOD, Key.CORPUS_ATTRIBUTION_METHOD, Key.CORPUS_SOURCE, Key.TAUGHT_MODEL,
    Key.PROBE, Key.MOMENT,
)  # fmt: skip


# What the one-sentence page was showing: a class that looks at the Training page comes back to
# its sentence, its reference and its view.
KEPT_ACROSS_PAGES = (Key.SENTENCE, Key.REFERENCE, Key.EXAMPLE, Key.VIEW)


def keep_across_pages(state: MutableMapping) -> None:
    """Call at the start of every run: each of :data:`KEPT_ACROSS_PAGES` that ``state``
    holds, written back as its own value. Streamlit forgets a widget's value on a run that does
    not draw the widget, unless the script set it in that run ("Understanding widget
    behavior" in Streamlit's documentation)."""
    for key in KEPT_ACROSS_PAGES:
        if key in state:
            state[key] = state[key]
