"""``attnviz evaluate --by-length``: several models by source length, as a user types it."""

from __future__ import annotations

import pytest

from attnviz import load
from attnviz.analysis.length_buckets import BUCKETS
from attnviz.cli.main import main
from attnviz.store import checkpoint
from attnviz.store.by_length_file import is_current, load_result
from attnviz.store.checkpoint import file_sha256

PNG = b"\x89PNG\r\n\x1a\n"


def _by_length(paths, corpus_file, *options) -> list[str]:
    return ["evaluate", *map(str, paths), "--by-length", "--data", str(corpus_file), *options]


def test_by_length_prints_the_table_and_writes_the_json_and_the_chart(
    trained, corpus_file, cli_priors, tmp_path, capsys
):
    paths = [trained("none")[0], trained("general")[0]]
    before = [file_sha256(p) for p in paths]
    json_file, png = tmp_path / "why-attention.json", tmp_path / "why.png"
    options = ["--per-bucket", "5", "--priors", str(cli_priors)]
    argv = _by_length(paths, corpus_file, *options, "--json", str(json_file), "--chart", str(png))
    assert main(argv) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    header = lines[0].split()
    assert header[:3] == ["words", "n", "mean"]
    assert header.count("BLEU") == 2 and "none" in header and "general" in header
    rows = [line.split() for line in lines[2 : 2 + len(BUCKETS)]]
    assert [r[0] for r in rows] == [b.label for b in BUCKETS]
    assert all(r[1] == "5" for r in rows)  # the toy's test split fills every bucket
    assert any("greedy, fp32" in line for line in lines)  # --by-length pins fp32
    assert f"saved {json_file}" in err and f"saved {png}" in err
    result = load_result(json_file)
    assert [m.attention for m in result.models] == ["none", "general"]
    for row, fixed, attention in zip(rows, *(m.buckets for m in result.models), strict=True):
        bleu = f"{fixed.bleu:.1f} [{fixed.bleu_low:.1f}, {fixed.bleu_high:.1f}]"
        assert " ".join(row[3:6]) == bleu and row[6] == f"{fixed.lost:.1f}"
        assert row[7] == f"{attention.bleu:.1f}" and row[10] == f"{attention.lost:.1f}"
    assert is_current(result, paths) and [file_sha256(p) for p in paths] == before
    assert png.read_bytes().startswith(PNG)


def test_without_priors_the_lost_measure_is_left_out_with_a_note(
    trained, corpus_file, tmp_path, monkeypatch, capsys
):
    monkeypatch.chdir(tmp_path)  # no checkpoints/eflomal-priors.txt.gz here
    paths = [trained("none")[0], trained("general")[0]]
    json_file = tmp_path / "r.json"
    assert main(_by_length(paths, corpus_file, "--per-bucket", "2", "--json", str(json_file))) == 0
    out, err = capsys.readouterr()
    assert "note: no eflomal priors given" in err and "note: no eflomal priors given" in out
    rows = [line.split() for line in out.splitlines()[2 : 2 + len(BUCKETS)]]
    assert all(r[-1] == "-" and r[6] == "-" for r in rows)  # each model's lost column
    assert all(b.lost is None for m in load_result(json_file).models for b in m.buckets)


def _copy_with(path, tmp_path, name, **card):
    """The checkpoint at ``path`` saved again as ``name`` with ``card`` entries changed (and
    no training history)."""
    tr = load(path, precision="fp32")
    out = tmp_path / f"{name}.safetensors"
    card = {**{k: v for k, v in tr.card.items() if k != "history"}, **card}
    checkpoint.save(
        out, tr.model, tr.src_vocab, tr.tgt_vocab, tr.text, tr.data, card, subwords=tr.subwords
    )
    return out


def test_models_of_another_corpus_are_refused_and_nothing_is_written(
    trained, corpus_file, tmp_path, capsys
):
    path = trained("general")[0]
    other = _copy_with(path, tmp_path, "other", corpus={"sha256": "0" * 64})
    json_file = tmp_path / "r.json"
    argv = _by_length([trained("none")[0], other], corpus_file, "--json", str(json_file))
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "differ in corpus" in err and "Traceback" not in err and not json_file.exists()


def test_named_priors_of_another_corpus_are_refused(
    trained, corpus_file, cli_priors, tmp_path, capsys
):
    other = _copy_with(trained("general")[0], tmp_path, "other", corpus={"sha256": "0" * 64})
    argv = _by_length([other], corpus_file, "--priors", str(cli_priors))
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "another corpus" in err and "lost not measured" in err


@pytest.mark.parametrize(
    "argv, message",
    [
        (["evaluate", "a.safetensors", "b.safetensors", "--data", "c.txt"], "takes one checkpoint"),
        (["evaluate", "a.safetensors", "--by-length"], "--by-length needs --data"),
        (["evaluate", "a.safetensors", "--data", "c.txt", "--json", "r.json"], "--json goes with"),
        (["evaluate", "a.safetensors", "--data", "c.txt", "--seed", "5"], "--seed goes with"),
        (["evaluate", "a.safetensors", "--by-length", "--data", "c.txt", "--per-bucket", "0"],
         "--per-bucket must be at least 1"),
        (["evaluate", "a.safetensors", "--by-length", "--data", "c.txt", "--sinks", "s.txt"],
         "--by-length and --sinks"),
        (["evaluate", "a.safetensors", "--by-length", "--data", "c.txt", "--beam", "5"],
         "translates the test split greedily"),
        (["evaluate", "a.safetensors", "--by-length", "--data", "c.txt", "--chart", "c.svg"],
         "--chart writes a PNG"),
        (["evaluate", "a.safetensors", "a.safetensors", "--by-length", "--data", "c.txt"],
         "share a file name"),
    ],
)  # fmt: skip
def test_refusals_say_what_is_wrong_and_exit_2(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_help_says_what_by_length_does(capsys):
    with pytest.raises(SystemExit):
        main(["evaluate", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "any number of checkpoints of one corpus, split and direction" in text
    assert "95% bootstrap interval" in text and "first reference" in text
    assert "fp32 with --by-length" in text
