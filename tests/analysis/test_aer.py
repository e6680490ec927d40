"""AER against alignments worked out by hand, in both gold formats."""

import pytest

from attnviz.analysis import aer
from attnviz.cli.main import main


def _files(tmp_path, gold: str, hyp: str):
    (tmp_path / "gold").write_text(gold)
    (tmp_path / "hyp").write_text(hyp)
    return tmp_path / "gold", tmp_path / "hyp"


def test_sure_and_possible_links(tmp_path):
    # S = {0-0, 1-1}, P = S + {1-2}; A = {0-0, 1-2, 2-2}
    # |A&S| = 1, |A&P| = 2: precision 2/3, recall 1/2, AER = 1 - 3/5
    r = aer.score(*(_read(*_files(tmp_path, "0-0 1-1 1?2\n", "0-0 1-2 2-2\n"))))
    assert (r.precision, r.recall, r.aer) == pytest.approx((200 / 3, 50, 40))


def test_counts_are_summed_over_the_corpus_not_averaged(tmp_path):
    # the second sentence adds one sure link and no hypothesis: 1 - (1 + 2) / (3 + 3)
    r = aer.score(*_read(*_files(tmp_path, "0-0 1-1 1?2\n0-0\n", "0-0 1-2 2-2\n\n")))
    assert (r.precision, r.recall, r.aer) == pytest.approx((200 / 3, 100 / 3, 50))
    assert (r.sentences, r.links) == (2, 3)


def test_an_empty_hypothesis_scores_100(tmp_path):
    r = aer.score(*_read(*_files(tmp_path, "0-0 1-1\n", "\n")))
    assert (r.precision, r.recall, r.aer) == (0, 0, 100)


def test_a_perfect_hypothesis_scores_0_even_without_the_possible_links(tmp_path):
    r = aer.score(*_read(*_files(tmp_path, "0-0 1-1 1?2\n", "1-1 0-0\n")))
    assert r.aer == 0 and r.recall == 100


def test_naacl_format_is_1_based_drops_null_and_defaults_to_sure(tmp_path):
    naacl = "1 1 1 S\n1 2 2\n1 2 3 P\n1 0 3 S\n2 1 1 P\n"
    (tmp_path / "naacl").write_text(naacl)
    (tmp_path / "pharaoh").write_text("0-0 1-1 1?2\n0?0\n")
    assert aer.read_gold(tmp_path / "naacl") == aer.read_gold(tmp_path / "pharaoh")


def test_bad_lines_and_mismatched_lengths_are_refused(tmp_path):
    gold, hyp = _files(tmp_path, "0-0\n", "0-x\n")
    with pytest.raises(ValueError, match="hyp:1"):
        aer.read_hypotheses(hyp)
    with pytest.raises(ValueError, match="1 gold sentences but 2"):
        aer.score(aer.read_gold(gold), [set(), set()])


def test_the_aer_command_prints_the_three_figures(tmp_path, capsys):
    gold, hyp = _files(tmp_path, "0-0 1-1 1?2\n", "0-0 1-2 2-2\n")
    assert main(["aer", "--gold", str(gold), "--hyp", str(hyp)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[:3] == ["precision 66.67", "recall 50.00", "AER 40.00"]
    assert main(["aer", "--gold", str(gold), "--hyp", str(tmp_path / "missing")]) == 2


def _read(gold, hyp):
    return aer.read_gold(gold), aer.read_hypotheses(hyp)


def test_reverse_swaps_both_sides_of_sure_and_possible_links():
    (g,) = aer.reverse([aer.Gold({(0, 1)}, {(0, 1), (2, 0)})])
    assert g == aer.Gold({(1, 0)}, {(1, 0), (0, 2)})


def test_a_gold_file_may_start_with_a_byte_order_mark(tmp_path):
    path = tmp_path / "gold.txt"
    path.write_bytes("\ufeff0-0 1?1\n".encode())
    assert aer.read_gold(path) == [aer.Gold({(0, 0)}, {(0, 0), (1, 1)})]


def test_a_huge_sentence_id_is_refused_before_anything_is_built(tmp_path):
    path = tmp_path / "gold.naacl"
    path.write_text("1 1 1 S\n999999999 1 1\n")
    with pytest.raises(ValueError, match=r"gold.naacl:2: sentence 999999999, but there are 5"):
        aer.read_gold(path, sentences=5)
    with pytest.raises(ValueError, match="there are 100000 sentences"):
        aer.read_gold(path)  # unbounded only up to MAX_SENTENCES


def test_the_command_line_turns_a_folder_given_as_a_file_into_a_message(tmp_path, capsys):
    (tmp_path / "hyp.txt").write_text("0-0\n")
    assert main(["aer", "--gold", str(tmp_path), "--hyp", str(tmp_path / "hyp.txt")]) == 2
    assert "error" in capsys.readouterr().err
