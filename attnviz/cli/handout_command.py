"""``attnviz handout``: a lesson's sentences, translated by every model given, written as a
static site (:mod:`attnviz.handout`); with ``--lesson``, the dashboard's Lesson beside them, on
the first sentence (:mod:`attnviz.handout.lesson`)."""

from __future__ import annotations

import sys
from pathlib import Path


def write_handout_command(args) -> int:
    """Translate each sentence with each model, as ``translate --json`` translates it alone,
    and write the pages; a sentence some model refuses is left out, with the reason on
    stderr. With ``args.lesson``, the lesson's steps too, in the pages' language."""
    from .. import i18n
    from ..handout.lesson import build_lesson
    from ..handout.site import translations, write_handout
    from ..store.checkpoint import load

    sentences = [s.strip() for s in Path(args.sentences).read_text("utf-8").splitlines()]
    sentences = [s for s in sentences if s]
    if not sentences:
        raise ValueError(f"{args.sentences}: no sentence in it")
    names = [Path(m).name.removesuffix(".safetensors") for m in args.models]
    if len(set(names)) != len(names):
        raise ValueError(f"two models with one name: {', '.join(names)}")
    translators = [load(m, precision=args.precision) for m in args.models]
    pages = _sentence_pages(args, sentences, names, translators)
    i18n.bind(translations(args.lang))
    try:
        models = list(zip(names, translators, strict=True))
        lesson = build_lesson(sentences[0], models, args.priors) if args.lesson else None
        handout = write_handout(
            args.out, pages, language=args.lang, zip_path=args.zip, lesson=lesson
        )
    finally:
        i18n.bind(None)
    sizes = handout.sizes()
    mb, kb = {k: v / 1e6 for k, v in sizes.items()}, sizes["largest_page"] / 1e3
    print(
        f"{len(pages)} pages in {handout.folder}/ ({mb['folder']:.2f} MB, of which "
        f"plotly.min.js {mb['plotly']:.2f} MB; largest page {kb:.1f} kB)"
    )
    if handout.lesson:
        print(
            f"the lesson: {len(handout.lesson)} pages, {handout.lesson[0].name} first "
            f"(largest {sizes['largest_lesson_page'] / 1e3:.1f} kB)"
        )
    print(f"open {(handout.folder / 'index.html').resolve().as_uri()}")
    if handout.zip:
        print(f"zipped: {handout.zip} ({handout.zip.stat().st_size / 1e6:.2f} MB)")
    return 0


def _sentence_pages(args, sentences: list[str], names: list[str], translators) -> list:
    """For each sentence no model refuses, its (model name, Trace) pairs; each refusal said on
    stderr."""
    from ..errors import Refused

    search = dict(beam=args.beam, alpha=args.alpha, beta=args.coverage)
    # One sentence at a time: a batch pads, and padding moves the last bits of a float, so a
    # page's numbers equal those of `translate --json` given that sentence alone.
    columns = [[tr.translate_each([s], **search)[0] for s in sentences] for tr in translators]
    pages = []
    for i, results in enumerate(zip(*columns, strict=True)):
        refused = [(n, r) for n, r in zip(names, results, strict=True) if isinstance(r, Refused)]
        if refused:
            for name, error in refused:
                print(f"sentence {i + 1}: {name}: {error}; left out", file=sys.stderr)
            continue
        pages.append(list(zip(names, results, strict=True)))  # (name, Trace) per model
    if not pages:
        raise ValueError("every sentence was refused by some model")
    return pages
