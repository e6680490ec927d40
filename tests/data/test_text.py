from attnviz.data.text import TextConfig, normalize

TEXT = TextConfig()


def test_no_break_spaces_and_curly_apostrophes_are_normalized():
    assert normalize("Va\u202f!  J\u2019ai\u00a0froid ") == "Va ! J'ai froid"


def test_french_elisions_are_split_so_words_align_one_to_one():
    assert TEXT.tokenize("J\u2019ai froid\u00a0!", "tgt") == ["J'", "ai", "froid", "!"]
    assert TEXT.tokenize("L'homme n'aime pas l'école.", "tgt") == [
        "L'",
        "homme",
        "n'",
        "aime",
        "pas",
        "l'",
        "école",
        ".",
    ]


def test_english_punctuation_and_contractions_are_split():
    assert TEXT.tokenize("She doesn't like apples.", "src") == [
        "She",
        "doesn",
        "'t",
        "like",
        "apples",
        ".",
    ]


def test_detokenize_undoes_the_split():
    tokens = TEXT.tokenize("J'ai froid, et toi ?", "tgt")
    assert TEXT.detokenize(tokens) == "J'ai froid, et toi ?"


def test_markup_is_kept_as_text_not_escaped():
    assert "<" in TEXT.tokenize("<script>alert(1)</script>", "src")


def test_lowercasing_is_a_config_choice():
    assert TextConfig(lowercase=True).tokenize("I Am", "src") == ["i", "am"]
    assert TEXT.tokenize("I Am", "src") == ["I", "Am"]


def test_blank_and_control_only_text_gives_no_tokens():
    assert TEXT.tokenize(" \u200b\t ", "src") == []
