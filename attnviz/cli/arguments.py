"""The command line's options: one subcommand per job, each with the options it takes.

The train command's options come from the configuration dataclasses (see
:mod:`attnviz.options`), so each training default is written once, beside its field.
"""

from __future__ import annotations

import argparse

from ..analysis import attribution
from ..analysis.eflomal_aligner import DIRECTIONS
from ..analysis.eflomal_priors import PriorsConfig
from ..analysis.length_inputs import PER_BUCKET
from ..data.corpus import DataConfig
from ..data.dialogue import SPLITS as DIALOGUE_SPLITS
from ..data.text import TextConfig
from ..decoding.translator import BETA
from ..model.model_config import ModelConfig
from ..model.precision import Precision, precision_names
from ..options import add_options, by_name, typed
from ..store import step_index_builder as steps_builder
from ..training.config import TrainConfig, TrainingRun
from ..tuning.decoding_precision import DECODING

PRIORS = "checkpoints/eflomal-priors.txt.gz"  # shipped beside the checkpoints
CONFIGS = (ModelConfig, TextConfig, DataConfig, TrainConfig)  # the train command's settings


class _Help(argparse.ArgumentDefaultsHelpFormatter):
    """Show defaults, except the None of options that have no default."""

    def _get_help_string(self, action):
        if action.default is None or action.required:
            return action.help
        return super()._get_help_string(action)


def parser() -> argparse.ArgumentParser:
    """The command line's parser: one subcommand per job."""
    ap = argparse.ArgumentParser(
        prog="attnviz", description="Train, run and inspect attention-based GRU translators."
    )
    sub = ap.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add in (
        _train_command,
        _priors_command,
        _translate_command,
        _align_command,
        _evaluate_command,
        _index_command,
        _ask_corpus_command,
        _steps_command,
        _handout_command,
        _dialogue_command,
        _distill_command,
    ):
        add(sub)
    _inspect_commands(sub)
    return ap


def _corpus_command(sub, name: str, out: str, **texts: str) -> argparse.ArgumentParser:
    """A command that reads a corpus (--data) and writes ``out`` (--out); ``texts``: its help
    and description."""
    p = sub.add_parser(name, formatter_class=_Help, **texts)
    p.add_argument("--data", required=True, help="corpus file, source<TAB>target per line")
    p.add_argument("--out", required=True, help=out)
    return p


def _train_command(sub) -> None:
    t = _corpus_command(
        sub,
        "train",
        "checkpoint to write (.safetensors)",
        help="train a model on a tab-separated parallel corpus",
        description="Train on `source<TAB>target[<TAB>...]` lines. The best epoch "
        "(lowest validation loss) is saved to --out; the full training state is saved "
        "to OUT.state after every epoch for --resume. Under torchrun (`torchrun "
        "--nproc_per_node N -m attnviz train ...`) N processes train one model with "
        "DistributedDataParallel, gloo on CPUs and NCCL on GPUs; rank 0 alone validates and "
        "writes the files (see the README).",
    )
    t.add_argument(
        "--init-from",
        default=None,
        metavar="CHECKPOINT",
        help="start from this checkpoint's weights, with its architecture, text settings, "
        "vocabularies and sentencepiece models (options that contradict them are refused; "
        "--dropout may change), a fresh optimizer and the schedule given here, on --data (its "
        "corpus or another); the history goes on from its history, and the card records the "
        "lineage",
    )
    t.add_argument(
        "--fresh-attention",
        action="store_true",
        help="with --init-from: the attention's score starts from new random weights, the rest "
        "from the checkpoint's, so that where the model looks is learned again (an attention "
        "that has settled on the source <eos> does not leave it by itself when what made it "
        "is gone: see docs/alignment.md)",
    )
    t.add_argument(
        "--add-pieces",
        type=int,
        default=0,
        metavar="N",
        help="with --init-from: grow the checkpoint's sentencepiece BPE models by up to N "
        "pieces each, so that the words of the training split they split, most frequent first "
        "(a word's case variants counted together), read as one piece; each new embedding row "
        "starts as its lower-case twin's where that is one piece, every other new row as the "
        "mean of the rows of the pieces it replaces (see docs/training.md)",
    )
    for config in CONFIGS:
        add_options(t, config)
    _run_options(t)
    _card_options(t)


def _run_options(t: argparse.ArgumentParser) -> None:
    """Where and how a training run runs, and how it stores the weights."""
    t.add_argument(
        "--device",
        default=TrainingRun.device,
        help="torch device: cpu, cuda, cuda:1, ...; under torchrun cpu or cuda (each process "
        "on cuda:LOCAL_RANK)",
    )
    t.add_argument(
        "--threads",
        type=int,
        default=None,
        help="CPU threads per process (default: torch's, one per core; 1 under a torchrun of "
        "several processes); results are reproducible for a given thread count",
    )
    t.add_argument(
        "--half",
        action="store_true",
        help="store the weights as float16, half the file size (loaded back as float32; "
        "training itself runs at --precision)",
    )
    t.add_argument(
        "--resume", action="store_true", help="continue from OUT.state, the last saved epoch"
    )
    t.add_argument(
        "--minutes",
        type=float,
        default=None,
        help="end the run early, after the last epoch that, judged by the length of the one "
        "before, ends within this many minutes of the start; the best epoch is then tested and "
        "saved as after a full run (a lent machine's time, a session's end; not under torchrun)",
    )
    guide = t.add_mutually_exclusive_group()
    guide.add_argument(
        "--guide",
        choices=["eflomal"],
        default=None,
        help="guided alignment: pull attention towards eflomal's links between the tokens of "
        "every pair (aligned once and cached beside --out), with --guide-weight",
    )
    guide.add_argument(
        "--guide-links",
        default=None,
        metavar="FILE",
        help="guided alignment from your own links: Pharaoh lines (i-j, source word first, "
        "0-based), one per pair of --data, over whitespace-separated words",
    )


def _card_options(t: argparse.ArgumentParser) -> None:
    """What the model card and the training history record besides the run's settings."""
    t.add_argument(
        "--probe-pairs",
        default=None,
        help="more probes for the history: `source ||| target` lines, whitespace-tokenized",
    )
    t.add_argument(
        "--probe-gold", default=None, help="gold alignments of --probe-pairs (Pharaoh lines)"
    )
    t.add_argument(
        "--probe-reverse-gold",
        action="store_true",
        help="--probe-gold lists target-source links (f-e), as the Hansards data does",
    )
    t.add_argument(
        "--tatoeba",
        action="store_true",
        help="record the Tatoeba license and attribution (CC-BY 2.0) in the model card",
    )
    t.add_argument("--license", default=None, help="the corpus license, for the model card")
    t.add_argument("--attribution", default=None, help="the corpus attribution, for the model card")


def typed_train_options(argv: list[str]) -> dict[str, object]:
    """The configuration options a train command line (after ``train``) gives, by field name,
    defaults left out: what ``--init-from`` compares with the checkpoint."""
    # No abbreviations: among these options alone, --out would read as --output-projection.
    t = argparse.ArgumentParser(
        add_help=False, argument_default=argparse.SUPPRESS, allow_abbrev=False
    )
    for config in CONFIGS:
        add_options(t, config, defaults=False)
    return typed(t, argv)


def _dialogue_command(sub) -> None:
    p = sub.add_parser(
        "dialogue",
        formatter_class=_Help,
        help="make the everyday-dialogue corpus (XDailyDialog) into a corpus to train on",
        description="Reads XDailyDialog's English-Chinese DailyDialog splits from FOLDER "
        "(train.en, train.zh, train.ids; dev.*, test.*) and writes --split's pairs as "
        "`English<TAB>Chinese<TAB>attribution` lines, cmn.txt's format: the English "
        "detokenized (contractions and numbers joined, Moses), every pair whose English or "
        "Chinese is also in another split dropped (whole dialogues stay on one side: "
        "DailyDialog splits by dialogue), and repeats dropped. Licence: CC BY-NC-SA 4.0 (in "
        "each line's third column; a model trained on it carries it: train --license). To "
        "train on it with Tatoeba: `cat cmn.txt OUT > joined.txt`.",
    )
    p.add_argument("folder", metavar="FOLDER", help="the folder of XDailyDialog's splits")
    p.add_argument("--out", required=True, help="corpus file to write (.tsv or .txt)")
    p.add_argument("--split", choices=DIALOGUE_SPLITS, default="train", help="the split to write")


def _distill_command(sub) -> None:
    p = sub.add_parser(
        "distill",
        formatter_class=_Help,
        help="a teacher's translations of a corpus's training sources, as a corpus to train on",
        description="Sequence-level distillation (Kim & Rush, 2016): TEACHER translates, "
        "greedily, every distinct source of --data's training split (the split TEACHER was "
        "trained with, so no held-out sentence is translated), and the pairs are written to "
        "--out in --data's columns, each with a third column naming the teacher. Train a "
        "student on both: `cat fra.txt OUT > joined.txt`.",
    )
    p.add_argument("teacher", metavar="TEACHER", help="the checkpoint that translates")
    p.add_argument("--data", required=True, help="the corpus TEACHER was trained on")
    p.add_argument("--out", required=True, help="corpus file to write")
    p.add_argument("--batch-size", type=int, default=64, help="sentences translated together")
    p.add_argument(
        "--precision",
        type=by_name(Precision),
        choices=precision_names(DECODING),
        default=Precision.FP32,
        help="how the teacher's weights are stored for decoding (see translate --help); fp32: "
        "its translations as trained, in batches",
    )


def _priors_command(sub) -> None:
    p = _corpus_command(
        sub,
        "priors",
        "priors file to write (.txt.gz)",
        help="align a corpus's training split with eflomal, for `align --source eflomal`",
        description="Aligns the training split of --data with the statistical aligner eflomal "
        "(forward and reverse), on the tokens a model trained with these split and text "
        "settings sees, and writes eflomal's priors (what it learned) to --out: with them, "
        "`align --source eflomal`, `evaluate --priors` and the dashboard align any new "
        "sentence. The file records the corpus's sha256, the settings and this command; a "
        "model trained on another corpus or split is refused.",
    )
    for config, name in (
        (DataConfig, "source_column"),
        (DataConfig, "valid_percent"),
        (DataConfig, "test_percent"),
        (DataConfig, "max_len"),
        (TextConfig, "src_lang"),
        (TextConfig, "tgt_lang"),
    ):
        f = config.__dataclass_fields__[name]
        p.add_argument(
            "--" + name.replace("_", "-"),
            dest=name,
            type=type(f.default),
            default=f.default,
            choices=f.metadata.get("choices"),
            help=f.metadata["help"] + " (as the model was trained)",
        )
    p.add_argument(
        "--lowercase",
        action=argparse.BooleanOptionalAction,
        default=TextConfig.lowercase,
        help=TextConfig.__dataclass_fields__["lowercase"].metadata["help"],
    )
    add_options(p, PriorsConfig)


def _translate_command(sub) -> None:
    tr = sub.add_parser("translate", help="translate sentences from stdin, one per line")
    tr.add_argument("checkpoint")
    tr.add_argument("--beam", type=int, default=1, help="beam width (1: greedy)")
    _beam_options(tr)
    tr.add_argument("--batch-size", type=int, default=64, help="sentences translated together")
    tr.add_argument(
        "--json",
        action="store_true",
        help="one JSON object per line instead of the text: the tokens, each step's attention "
        "weights and scores, the probabilities and candidates (null for a blank line, "
        '{"error": ...} for a refused one), each with its "check": whether to doubt it '
        '("flagged"), on what evidence, and the note the dashboard shows',
    )
    _priors_option(tr)
    tr.add_argument(
        "--index",
        default=None,
        help="the model's corpus index, for the source words it never saw (default: the one "
        "its card names, beside the checkpoint)",
    )
    _precision_option(tr)


def _handout_command(sub) -> None:
    h = sub.add_parser(
        "handout",
        formatter_class=_Help,
        help="write a lesson's sentences as static pages that need no server",
        description="Translate each line of SENTENCES with every model and write a static site "
        "to --out: index.html, one page per sentence (both models' heatmaps, a step slider "
        "that moves both, the candidates and the step's numbers) and the plotly.min.js they "
        "share. It opens from file:// with no network, from a zip, or from any static host. "
        "With --lesson, the dashboard's Lesson too, on the first sentence.",
    )
    h.add_argument("sentences", help="a text file, one sentence per line (blank lines skipped)")
    h.add_argument("--models", nargs="+", required=True, help="checkpoints, one column each")
    h.add_argument("--out", required=True, help="the folder to write")
    h.add_argument("--lang", default="en", choices=["en", "zh"], help="the pages' language")
    h.add_argument("--zip", default=None, help="also write the folder zipped to this file")
    h.add_argument(
        "--lesson",
        action="store_true",
        help="also write the dashboard's Lesson, its six steps as pages beside the sentence "
        "pages (lesson-1.html, ...), on the FIRST sentence of SENTENCES, decoded greedily (step "
        "1 on a short sentence of its own, grown to 1, 3, 5 and 8 sentences as the page's "
        "slider grows it, each stage's translation listed). Each step takes its model from "
        "--models by its configuration: one without attention (--attention none), a Bahdanau, "
        "a Luong (any score) and a Transformer; a step whose model is not given says so in "
        "place of its words. Formulas are typeset as MathML; the speed row is dated",
    )
    h.add_argument(
        "--priors",
        default=PRIORS,
        help="with --lesson: eflomal's priors from the models' corpus, as `attnviz priors` "
        "writes them, for the alignment steps (without them, those steps say so)",
    )
    h.add_argument("--beam", type=int, default=1, help="beam width (1: greedy)")
    _beam_options(h)
    _precision_option(h)


def _align_command(sub) -> None:
    al = sub.add_parser(
        "align", help="align `source ||| target` lines from stdin (Pharaoh i-j out)"
    )
    al.add_argument("checkpoint")
    al.add_argument(
        "--method",
        choices=("argmax", "threshold", "intersect"),
        default="argmax",
        help="argmax: each target word to its most attended source word; threshold: every "
        "pair with weight >= --threshold; intersect: argmax of both row and column",
    )
    al.add_argument("--threshold", type=float, default=0.5, help="for --method threshold")
    al.add_argument(
        "--shift",
        action="store_true",
        help="read step t's attention as belonging to its input word y_{t-1} (Shift-Att)",
    )
    _heads_options(al)
    al.add_argument(
        "--source",
        choices=("attention", "attribution", "eflomal"),
        default="attention",
        help="read links off the attention weights, or off attribution (--attribution): "
        "each target word to its most important source word; or eflomal: a statistical "
        "aligner with the priors of the model's corpus (--priors), no attention involved",
    )
    _priors_option(al)
    al.add_argument(
        "--direction",
        choices=DIRECTIONS,
        default="symmetric",
        help="with --source eflomal: forward (each target word to <= 1 source word), reverse "
        "(each source word to <= 1 target word) or symmetric (grow-diag-final-and of both)",
    )
    al.add_argument(
        "--attribution",
        choices=tuple(attribution.METHODS),
        default="erasure",
        help="with --source attribution: "
        + ", ".join(method.label for method in attribution.METHODS.values())
        + " (default: %(default)s)",
    )
    _steps_option(al)
    _precision_option(al, Precision.FP32)


def _priors_option(parser: argparse.ArgumentParser, default: str | None = PRIORS) -> None:
    parser.add_argument(
        "--priors",
        default=default,
        help="eflomal's priors from the model's corpus, as `attnviz priors` writes them"
        + (" (default: %(default)s)" if default else ""),
    )


def _steps_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--ig-steps",
        type=int,
        default=attribution.STEPS,
        help="integrated gradients: points on the path from the baseline (default: %(default)s)",
    )


def _heads_options(parser: argparse.ArgumentParser) -> None:
    """A Transformer's choice of attention to read links off."""
    parser.add_argument(
        "--layer",
        type=int,
        default=None,
        help="a Transformer: read decoder layer LAYER's cross-attention (0-based), its heads "
        "averaged (default: the picture the model draws, the layer named on its card)",
    )
    parser.add_argument("--head", type=int, default=None, help="with --layer: that head alone")


def _evaluate_command(sub) -> None:
    ev = sub.add_parser(
        "evaluate",
        help="test BLEU on the held-out split of a corpus; AER against gold alignments; "
        "attention sinks; BLEU of several models by source length (--by-length)",
        description="With --data: sacreBLEU of the checkpoint on the held-out split of the "
        "corpus it was trained on, every reference of a source used. With --gold and --pairs: "
        "the alignment error rate of each way `align` reads links off attention (--method, "
        "with and without --shift), then of links read off attribution (--attribution). With "
        "--sinks: how often the attention argmax of a greedy translation sits on the source "
        "<eos> or on the final punctuation, for the first output token and for every step that "
        "writes one (over the pieces a subword model reads). With --by-length and --data, any "
        "number of checkpoints of one corpus, split and direction are scored on the same "
        "inputs, by source length in words (1-5, 6-10, ..., 56-60, 61+; Bahdanau et al. 2015, "
        "Figure 2): the test sentences, and consecutive ones joined after a seeded shuffle to "
        "make the long inputs, at most --per-bucket per bucket, each against its first "
        "reference (joined ones against their parts' first references, joined). Each model "
        "translates greedily (an input it refuses scores as an empty output); per bucket it "
        "prints corpus BLEU with a 95% bootstrap interval and the share of the source's "
        "content words that eflomal (with --priors) links to no output word that the "
        "priors' corpus ever links them to.",
    )
    ev.add_argument(
        "checkpoints",
        nargs="+",
        metavar="CHECKPOINT",
        help="the model to evaluate; with --by-length, one or more",
    )
    ev.add_argument(
        "--data", help="the corpus the checkpoint was trained on (--by-length needs it)"
    )
    ev.add_argument("--beam", type=int, nargs="+", default=[1], help="beam widths to score")
    _beam_options(ev)
    ev.add_argument("--split", choices=("test", "valid"), default="test")
    ev.add_argument(
        "--gold", help="gold alignments of --pairs: Pharaoh or HLT-NAACL 2003, as `aer` reads"
    )
    ev.add_argument(
        "--pairs", help="`source ||| target` lines (whitespace-separated words), one per gold line"
    )
    ev.add_argument(
        "--reverse-gold",
        action="store_true",
        help="the gold file lists target-source links (as the JHU Hansards files, `f-e`)",
    )
    ev.add_argument("--threshold", type=float, default=0.5, help="for --method threshold")
    _heads_options(ev)
    ev.add_argument(
        "--sinks",
        nargs="+",
        metavar="FILE",
        help="sentence files (one source per line; of `source ||| target` or tab-separated "
        "lines, the source) whose greedy translations are measured for attention sinks",
    )
    ev.add_argument(
        "--attribution",
        nargs="*",
        choices=tuple(attribution.METHODS),
        default=["saliency", "erasure"],
        help="with --gold: also the AER of links read off these attribution methods (as "
        "`align --source attribution`); integrated_gradients runs the model --ig-steps times "
        "over, so it is by far the slowest; none given: attention only (default: saliency "
        "erasure)",
    )
    ev.add_argument(
        "--priors",
        default=None,
        help="eflomal's priors from the model's corpus, as `attnviz priors` writes them: with "
        "--gold, eflomal's AER beside attention's; with --by-length, what finds the source "
        f"words an output lost (default there: {PRIORS}, and when that file is missing or "
        "was made from another corpus or split, that measure is left out with a note; priors "
        "named here must match the models)",
    )
    _steps_option(ev)
    _by_length_options(ev)
    _precision_option(ev, None)


def _by_length_options(ev: argparse.ArgumentParser) -> None:
    ev.add_argument(
        "--by-length",
        action="store_true",
        help="score every CHECKPOINT by source length on the test split of --data (see above)",
    )
    ev.add_argument(
        "--per-bucket",
        type=int,
        default=None,
        metavar="N",
        help=f"with --by-length: inputs per length bucket, at most (default: {PER_BUCKET})",
    )
    ev.add_argument(
        "--seed",
        type=int,
        default=None,
        help="with --by-length: the shuffle before joining, the draw of each bucket's inputs "
        "and the bootstrap (default: 0)",
    )
    ev.add_argument(
        "--json",
        default=None,
        metavar="FILE",
        help="with --by-length: also write the table as JSON, with each checkpoint's sha256 "
        "(the dashboard reads checkpoints/why-attention.json)",
    )
    ev.add_argument(
        "--chart",
        default=None,
        metavar="FILE.png",
        help="with --by-length: also draw BLEU and source words lost against source length "
        "to this PNG (needs kaleido and Chrome or Chromium)",
    )


def _index_command(sub) -> None:
    p = sub.add_parser(
        "index",
        formatter_class=_Help,
        help="index a corpus's pairs and eflomal's links, for `attnviz corpus` and the dashboard",
        description="Tokenizes every pair of CORPUS as a model reads it, aligns them with "
        "eflomal (cached beside --out, as guided training caches them) and writes a SQLite "
        "file: the pairs' tokens, their links, the split each pair falls in with either "
        "column as the source, and a full-text index (FTS5) of the words. One index serves a "
        "corpus's models in both directions. It records the corpus's sha256: a model trained "
        "on another corpus, split or tokenization is refused.",
    )
    p.add_argument("corpus", metavar="CORPUS", help="corpus file, first<TAB>second per line")
    p.add_argument("--out", required=True, help="index file to write (.sqlite)")
    p.add_argument(
        "--checkpoint",
        help="take the text settings and the split from this model (the options below are "
        "then ignored); its corpus must be CORPUS",
    )
    for config, name in (
        (DataConfig, "source_column"),
        (DataConfig, "valid_percent"),
        (DataConfig, "test_percent"),
        (DataConfig, "max_len"),
        (TextConfig, "src_lang"),
        (TextConfig, "tgt_lang"),
    ):
        f = config.__dataclass_fields__[name]
        p.add_argument(
            "--" + name.replace("_", "-"),
            dest=name,
            type=type(f.default),
            default=f.default,
            choices=f.metadata.get("choices"),
            help=f.metadata["help"] + " (as the models were trained)",
        )
    p.add_argument(
        "--lowercase",
        action=argparse.BooleanOptionalAction,
        default=TextConfig.lowercase,
        help=TextConfig.__dataclass_fields__["lowercase"].metadata["help"],
    )
    p.add_argument(
        "--card",
        nargs="+",
        default=[],
        metavar="CHECKPOINT",
        help="name the new index (file and sha256) in these checkpoints' cards, their weights "
        "copied as they are; each must have been trained on CORPUS with the same split and "
        "tokens, and the index must then lie beside it",
    )
    p.add_argument(
        "--card-only",
        action="store_true",
        help="name the index already at --out, of CORPUS, in the --card checkpoints' cards "
        "without building it anew: eflomal samples its links, so a rebuilt index differs by "
        "its sha256, and every card that named the old one would have to change",
    )


def _ask_corpus_command(sub) -> None:
    p = sub.add_parser(
        "corpus",
        formatter_class=_Help,
        help="what a model's training split says about a word: counts, eflomal's links, pairs",
        description="Looks WORD (a word or a phrase, tokenized as the model reads its source: "
        "jieba's words for Chinese) up in the model's own training split, in the corpus index "
        "its card names (beside it) or --index: how many pairs hold it, the target words "
        "eflomal links it to (counts and shares of those pairs) and example pairs, the words "
        "asked about and their links in [brackets]. With --target, the pairs where every word "
        "of TARGET is linked to it. Case counts, as it does for the models.",
    )
    p.add_argument("checkpoint")
    p.add_argument("word", metavar="WORD", help="source word or phrase")
    p.add_argument("--target", metavar="WORD", help="target word or phrase linked to WORD")
    p.add_argument("--json", action="store_true", help='print {"word", "pairs", "links", '
                   '"examples"} as JSON')  # fmt: skip
    p.add_argument("--limit", type=int, default=3, help="example pairs to show")
    p.add_argument("--index", help="the corpus index to read (default: the one the card names)")


def _steps_command(sub) -> None:
    p = sub.add_parser(
        "steps",
        formatter_class=_Help,
        help="index the queries of a sample of a model's training steps, for the nearest "
        "training steps of a step in the dashboard",
        description="Force-decodes --pairs pairs of the model's training split (from the "
        "corpus index its card names) and puts each word step's query (what the model "
        "attends with: s_{t-1} or h_t) into an approximate-nearest-neighbour index (usearch, "
        "HNSW, int8, the queries' first 64 principal components), with the step's pair, word "
        "and attention, in one safetensors file. It then checks it on --held-out pairs of the "
        "validation split: how often the 5 nearest training steps of a held-out step that "
        "writes a common word wrote the same word; the file records that share and the "
        "model's weight digest (an index of other weights is refused).",
    )
    p.add_argument("checkpoint")
    p.add_argument("--out", help="file to write (default: beside CHECKPOINT, named MODEL.steps)")
    p.add_argument("--pairs", type=int, default=steps_builder.PAIRS, help="training pairs sampled")
    p.add_argument("--held-out", type=int, default=steps_builder.HELD_OUT,
                   help="validation pairs checked")  # fmt: skip
    p.add_argument("--seed", type=int, default=steps_builder.SEED, help="seed of the samples")
    p.add_argument("--batch-size", type=int, default=64, help="pairs force-decoded together")
    p.add_argument("--threads", type=int, default=None, help="torch threads (default: torch's)")
    p.add_argument("--index", help="the corpus index to read (default: the one the card names)")


def _inspect_commands(sub) -> None:
    aer = sub.add_parser(
        "aer",
        help="alignment error rate of Pharaoh hypotheses against gold alignments",
        description="Prints precision, recall and AER (percent; Och & Ney 2003), counted over "
        "the whole file. Gold: Pharaoh lines (`i-j` sure, `i?j` possible, 0-based) or the "
        "HLT-NAACL 2003 format (`sentid e f [S|P]`, 1-based, no label = sure).",
    )
    aer.add_argument("--gold", required=True, help="gold alignments, one sentence per line")
    aer.add_argument("--hyp", required=True, help="Pharaoh `i-j` lines, as `align` writes them")

    info = sub.add_parser("info", help="print a checkpoint's model card")
    info.add_argument("checkpoint")
    info.add_argument("--json", action="store_true", help="the whole card as JSON")


def _beam_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--alpha",
        type=float,
        default=1.0,
        help="beam search: length normalization, score/len^alpha",
    )
    parser.add_argument(
        "--coverage",
        type=float,
        default=BETA,
        help="beam search: weight of the coverage penalty (Wu et al., 2016), which ranks down "
        "hypotheses that skip source words or loop over a few (0: none)",
    )


def _precision_option(
    parser: argparse.ArgumentParser, default: Precision | None = Precision.AUTO
) -> None:
    """``--precision``; ``default`` None means fp32 with --gold, --sinks or --by-length, else
    auto (evaluate)."""
    help_text = (
        "how weights are stored for decoding: int8 (CPU only) quarters the GRUs' and the output "
        "layer's bytes, bf16 halves the output layer's, int8-output (CPU only) quarters the "
        "output layer's; auto: whichever of fp32, bf16 and int8-output (the output layer alone "
        "below fp32, so the attention is the trained model's own) decodes fastest here, timed "
        "once per machine (ATTNVIZ_DECODING pins it): what the dashboard and a handout take, so "
        "a sentence gets the same words on each. Below fp32 sentences decode one at a time, so "
        "that a sentence's words never depend on the others"
    )
    if default != Precision.AUTO:  # align, evaluate --gold: links are read off attention
        help_text += (
            ". Default: fp32"
            + (" with --gold or --sinks" if default is None else "")
            + ", so that links come from the trained model's own attention (int8 moves its "
            "weights by up to a few hundredths)"
            + (
                "; fp32 with --by-length too, so that its scores do not depend on this "
                "machine's int8 kernels; else auto"
                if default is None
                else ""
            )
        )
    parser.add_argument(
        "--precision",
        type=by_name(Precision),
        choices=precision_names(DECODING),
        default=default,
        help=help_text,
    )
