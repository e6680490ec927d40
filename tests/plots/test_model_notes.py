"""What the page says of a model: card summaries and unknown words, built from cards and
Traces."""

from attnviz import ModelConfig
from attnviz.analysis.doubts import Doubts
from attnviz.decoding.trace import Owners
from attnviz.plots import model_notes

from ..handmade import hand_trace

SRC = ["I", "❤️", "cats", "<eos>"]
W = [[0.4, 0.3, 0.3, 0], [0, 0, 1, 0]]


def test_unknown_words_are_named_or_nothing_is_said():
    assert model_notes.unknown_note(hand_trace(W, SRC, ["x", "y"])) is None
    trace = hand_trace(W, SRC, ["x", "y"], src_known=[True, False, True, True])
    assert model_notes.unknown_note(trace) == "Not in the vocabulary (each is read as <unk>): “❤️”"
    w = [[0.2, 0.2, 0.2, 0.2, 0.2]] * 2
    twice = hand_trace(w, ["<", "b", ">", "<", "<eos>"], ["x", "y"], src_known=[0, 1, 0, 0, 1])
    assert model_notes.unknown_note(twice).endswith(r": “\<”, “\>”")  # each named once, escaped


def test_a_subword_model_reads_unknown_characters_as_bytes():
    pieces = hand_trace(W, SRC, ["x", "y"])
    known = [True, False, True, True]
    owners = Owners((0, 1, 2, 3), (0, 1))
    trace = hand_trace(W, SRC, ["x", "y"], src_known=known, pieces=pieces, owners=owners)
    assert model_notes.unknown_note(trace).startswith("Characters never seen in training")


def test_a_card_summary_gives_sizes_scores_corpus_and_training():
    config = ModelConfig(12000, 15000, attention="general", embed=64, hidden=128, layers=2)
    card = {
        "test_bleu": {"beam1": 31.2, "beam5": 32.0, "sentences": 2340},
        "corpus": {"file": "fra.txt", "license": "CC-BY 2.0", "attribution": "tatoeba.org"},
        "epochs": 8,
        "train_seconds": 3600,
        "hardware": "AMD EPYC, 1 threads",
        "attention_sinks": {
            "sentences": 2340,
            "steps": 21000,
            "first_eos": 3.1,
            "steps_eos": 1.2,
            "first_punct": 0.4,
            "steps_punct": 2.5,
            "split": "test",
            "search": "greedy",
        },
    }
    lines = model_notes.card_summary(card, config).split("  \n")
    assert lines == [
        "**general** attention · embed 64 · hidden 128 · 2 layer(s) · vocabularies 12,000 / 15,000",
        "Test BLEU: greedy 31.2, beam 5 32.0 (2,340 test sentences)",
        "Attention sinks (test split, 2340 sentences, greedy): first word's attention on the "
        "source `<eos>` 3.1%, every step's 1.2%; on the final punctuation 0.4% and 2.5%",
        "Corpus: fra.txt · license CC-BY 2.0 · tatoeba.org",
        "Trained 8 epochs in 3600 s on AMD EPYC (threads: 1)",
    ]


def test_a_card_summary_names_the_vocabularies_and_the_parent():
    from attnviz.data.corpus import DataConfig

    def first(config, data) -> str:
        return model_notes.card_summary({}, config, data).split("  \n")[0]

    words, pieces = DataConfig(subwords=0), DataConfig()
    assert first(ModelConfig(9000, 9000), words).endswith("whole-word vocabularies 9,000 / 9,000")
    assert first(ModelConfig(80, 90), pieces).endswith("subword vocabularies 80 / 90")
    shared = first(ModelConfig(80, 80, tie_embeddings=True), DataConfig(joint_subwords=True))
    assert shared.endswith(
        "one vocabulary of 80 subword pieces for both languages · embeddings and output layer tied"
    )
    card = {"lineage": [{"file": "a.safetensors", "sha256": "0123456789abcdef", "epochs": 7}]}
    last = model_notes.card_summary(card, ModelConfig(10, 10)).split("  \n")[-1]
    assert last.startswith("Continued from a.safetensors (sha256 0123456789ab…, 7 epochs)")


def test_a_card_summary_names_the_languages_and_the_attribution_column():
    card = {
        "languages": {"source": "zh", "target": "en"},
        "corpus": {"file": "cmn.txt", "license": "CC-BY 2.0 FR", "attribution": "tatoeba.org",
                   "source_column": 2, "attributed_lines": 29155},
    }  # fmt: skip
    lines = model_notes.card_summary(card, ModelConfig(10, 10)).split("  \n")
    assert (
        lines[1] == "Translates Chinese → English (the corpus's second column read as the source)"
    )
    assert lines[4] == (
        "Corpus: cmn.txt · license CC-BY 2.0 FR · tatoeba.org (each of 29,155 pairs with its "
        "authors in the file's third column)"
    )


def test_a_card_summary_marks_what_the_card_lacks():
    text = model_notes.card_summary({}, ModelConfig(10, 10))
    assert "Test BLEU: not measured for this file" in text
    assert "Trained – epochs in – s on –" in text
    assert "Attention sinks: not measured for this file" in text


def test_a_card_names_only_the_bleu_it_has_and_credits_in_the_readers_words():
    card = {
        "test_bleu": {"beam1": 43.81, "sentences": 2340},
        "corpus": {"attribution": "www.manythings.org/anki and tatoeba.org"},
    }
    text = model_notes.card_summary(card, ModelConfig(10, 10))
    assert "Test BLEU (greedy): 43.81 (2,340 test sentences)" in text
    assert "–" not in text.split("  \n")[1]
    assert "www.manythings.org/anki and tatoeba.org" in text


def test_the_note_names_each_reason_to_check_a_translation():
    note = model_notes.doubts_note(
        Doubts(
            0.52, unseen=("dioxide",), too_long=160, doubled=("belle",), made_up=("Bonnez",),
            lost=("red",),
        )
    )  # fmt: skip
    assert note == (
        "Check this translation: the model was unsure of its words (52% likely each, on "
        "average); “dioxide” never occurs in its training pairs; at 160 tokens the sentence is "
        "longer than any it was trained on; it writes “belle” twice in a row; “Bonnez” is in "
        "none of the translations it learned from; “red” may be missing from it."
    )
    assert model_notes.doubts_note(Doubts(0.9)) is None
