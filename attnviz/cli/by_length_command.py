"""``attnviz evaluate --by-length CHECKPOINT...``: several models scored by source length on the
same inputs (see :mod:`attnviz.analysis.by_length`), printed as a table, and written as JSON
for the dashboard and as a PNG chart when asked."""

from __future__ import annotations

import sys
from pathlib import Path

from ..analysis.by_length import LengthResult
from ..model.precision import Precision
from .arguments import PRIORS

OPTIONS = ("per_bucket", "seed", "json", "chart")  # the options that belong to --by-length


def refuse_by_length_options(args) -> None:
    """Refuse options that need --by-length without it, and a second checkpoint."""
    for name in OPTIONS:
        if getattr(args, name) is not None:
            flag = "--" + name.replace("_", "-")
            raise ValueError(f"{flag} goes with --by-length")
    if len(args.checkpoints) > 1:
        raise ValueError(
            f"evaluate takes one checkpoint, got {len(args.checkpoints)}; several are compared "
            "with --by-length"
        )


def _lost_aligner(args, models: dict):
    """eflomal for the lost measure, or why not (said on stderr); priors asked for by name that
    are of another corpus are an error."""
    from ..analysis.lost_words import lost_aligner
    from ..errors import Refused

    aligner = lost_aligner(_priors(args), models)
    if isinstance(aligner, Refused):
        if args.priors:
            raise ValueError(f"{args.priors}: {aligner.message}")
        _say(f"note: {aligner.message}")
    return aligner


def run_by_length(args) -> int:
    """Score ``args.checkpoints`` by source length; print the table, write --json and --chart."""
    from ..analysis.by_length import check_comparable, data_of
    from ..analysis.by_length import evaluate_by_length as evaluate
    from ..data.corpus import read_corpus
    from ..errors import Refused
    from ..files import atomic_write
    from ..store.by_length_file import save_result
    from ..store.checkpoint import file_sha256, load

    _refuse_other_modes(args)
    per_bucket = _per_bucket(args.per_bucket)
    if args.chart:
        _check_can_draw(args.chart)
    names = _names(args.checkpoints)
    precision = args.precision or Precision.FP32
    models = {n: load(p, precision=precision) for n, p in zip(names, args.checkpoints, strict=True)}
    check_comparable(models)
    first = next(iter(models.values()))
    corpus = read_corpus(args.data, data_of(first).source_column)
    recorded = (first.card.get("corpus") or {}).get("sha256")
    if recorded and recorded != corpus.sha256:
        _say(f"warning: {args.data} is not the file the models were trained on (sha256 differs)")
    aligner = _lost_aligner(args, models)
    note = aligner.message if isinstance(aligner, Refused) else None
    result = evaluate(
        models,
        corpus,
        {n: file_sha256(p) for n, p in zip(names, args.checkpoints, strict=True)},
        None if note else aligner,
        per_bucket=per_bucket,
        seed=args.seed or 0,
        notes=[note] if note else [],
        log=_say,
    )
    print(_length_table(result))
    if args.json:
        save_result(result, args.json)
        _say(f"saved {args.json}")
    if args.chart:
        from ..plots.image_export import to_image
        from ..plots.length_charts import length_figure

        atomic_write(args.chart, to_image(length_figure(result), "png"))
        _say(f"saved {args.chart}")
    return 0


def _per_bucket(given: int | None) -> int:
    """--per-bucket, or the default; refused below 1."""
    from ..analysis.length_inputs import PER_BUCKET

    per_bucket = PER_BUCKET if given is None else given
    if per_bucket < 1:
        raise ValueError(f"--per-bucket must be at least 1, got {per_bucket}")
    return per_bucket


def _names(checkpoints: list[str]) -> list[str]:
    """Each checkpoint's name in the table: its file's stem (refused when two share one)."""
    names = [Path(p).stem for p in checkpoints]
    if len(set(names)) < len(names):
        raise ValueError(f"two checkpoints share a file name ({', '.join(names)}): rename one")
    return names


def _refuse_other_modes(args) -> None:
    if not args.data:
        raise ValueError("--by-length needs --data, the corpus the checkpoints were trained on")
    for flag, given in (("--gold", args.gold), ("--pairs", args.pairs), ("--sinks", args.sinks)):
        if given:
            raise ValueError(f"--by-length and {flag} are separate runs of evaluate")
    if args.beam != [1] or args.split != "test":
        raise ValueError("--by-length translates the test split greedily: no --beam, --split")


def _check_can_draw(path: str) -> None:
    from ..plots.image_export import can_export_images

    if Path(path).suffix.lower() != ".png":
        raise ValueError(f"--chart writes a PNG: give a file name ending in .png, not {path}")
    if not can_export_images():
        raise ValueError(
            "--chart needs kaleido and Chrome or Chromium (see scripts/install-test-deps.sh)"
        )


def _priors(args):
    """The priors of --priors; of the shipped file when none is named and it is there."""
    from ..store.priors_file import load_priors

    if args.priors:
        return load_priors(args.priors)
    return load_priors(PRIORS) if Path(PRIORS).is_file() else None


def _say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _length_table(result: LengthResult) -> str:
    """One row per bucket: its words, inputs and mean length, then each model's BLEU with its
    interval and the percent of source words lost; below, how the numbers were made."""
    header = ["words", "n", "mean"]
    for m in result.models:
        header += [f"{m.name} BLEU [{result.confidence:g}% CI]", "lost %"]
    rows = [header]
    for b, bucket in enumerate(result.buckets):
        row = [bucket.label, str(bucket.inputs), _number(bucket.words, 1)]
        for m in result.models:
            s = m.buckets[b]
            bleu = "-" if s.bleu is None else f"{s.bleu:.1f} [{s.bleu_low:.1f}, {s.bleu_high:.1f}]"
            row += [bleu, _number(s.lost, 1)]
        rows.append(row)
    widths = [max(len(r[k]) for r in rows) for k in range(len(header))]
    lines = ["  ".join(c.rjust(w) for c, w in zip(r, widths, strict=True)) for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    corpus = result.corpus
    lines += [
        "",
        f"{sum(b.inputs for b in result.buckets)} inputs from {corpus['test_sentences']} test "
        f"sentences of {corpus['file']}, at most {result.per_bucket} per bucket, seed "
        f"{result.seed}; greedy, {result.precision}; {result.resamples} bootstrap resamples",
        *(f"{m.name}: attention {m.attention}, {m.refused} refused, {m.signature}"
          for m in result.models),
        f"lost: {result.lost_words}",
        *(f"note: {note}" for note in result.notes),
    ]  # fmt: skip
    return "\n".join(lines)


def _number(value: float | None, digits: int) -> str:
    return "-" if value is None else f"{value:.{digits}f}"
