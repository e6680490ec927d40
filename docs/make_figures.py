"""Regenerate the README's example table and alignment heatmaps from the shipped checkpoints.

    python docs/make_figures.py --data ../shared/data/fra-eng/fra.txt

Prints Markdown tables: the checkpoints' test BLEU as training recorded it, size and training
time (from their cards), the sentences a new user types first, ten examples, the long
out-of-domain sentences of issue 12, ten sentences in other styles and six with names and
numbers (with a check that no example is in the corpus), decoded in fp32 as the dashboard
does; writes docs/heatmap-MODEL.png with the project's own plot code (kaleido; needs Chromium).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import attnviz
from attnviz.data.corpus import read_corpus
from attnviz.data.text import normalize
from attnviz.plots import heatmaps, image_export, model_notes

ROOT = Path(__file__).parent.parent
MODELS = ("bahdanau-pieces", "luong-pieces", "bahdanau-words", "luong-words")  # shipped
FIRST = [  # what a new user types first; some of these are in the corpus
    "Hello!",
    "Good morning!",
    "I am cold.",
    "Where is the station?",
    "She doesn't like apples.",
    "The old man was reading a book in the garden when it started to rain.",  # 15 words
]
EXAMPLES = [  # none of these is in the corpus (--data checks)
    "Good morning, everyone!",
    "Good evening, my friends.",
    "I am cold and hungry.",
    "Excuse me, where is the train station?",
    "She doesn't like apples at all.",
    "My brother bought a red car yesterday.",
    "We are going to the beach with our children this summer.",
    "Can you help me find my keys?",
    "The old man was reading a book in the garden when it started to rain.",
    "I have never seen such a beautiful house.",
]
HARD = [  # what a reader of the papers types: long, out of Tatoeba's domain (none in the corpus)
    "The agreement on the European Economic Area was signed in August 1992.",
    "Destruction of the equipment means that Syria can no longer produce new chemical weapons.",
    "Attention allows the decoder to look at every word of the source sentence.",
    "A Boston Terrier is running on lush green grass in front of a white fence.",
]
STYLES = [  # captions, news, instructions, textbook and letter sentences (none in the corpus)
    "Two children are playing football on the beach at sunset.",
    "A woman in a red coat is walking her dog along the river.",
    "The government announced on Monday that taxes will rise next year.",
    "Thousands of people gathered in the capital to protest against the new law.",
    "Press the green button and wait until the light turns off.",
    "Add the flour to the milk and stir slowly for five minutes.",
    "The cat that my neighbour found last winter sleeps on our sofa every afternoon.",
    "If it rains tomorrow, we will stay at home and read books.",
    "The neural network translates each word while looking at the whole source sentence.",
    "Thank you very much for your letter, which arrived yesterday morning.",
]
NAMES = [  # names, dates and numbers that should come through verbatim (none in the corpus)
    "Ramirez arrived in Lisbon in 2003 with 14 suitcases.",
    "Einstein published his theory of relativity in 1905.",
    "My flight to Tokyo leaves at 7:45 on March 3.",
    "Angela Merkel met Emmanuel Macron in Berlin in 2019.",
    "The train from Amsterdam arrives at platform 12.",
    "Dr. Okafor has lived in Nairobi for 25 years.",
]
REORDERING = "She lives in a white house with a big garden."  # adjective after noun in French


def _shown(trace) -> str:
    """The translation, with the warning the dashboard would give (a loop, the length cap)."""
    note = model_notes.trace_warning(trace)
    return trace.text + (f" ⚠ {note}" if note else "")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", help="the training corpus, to check that no example is in it")
    a = ap.parse_args()
    models = {  # fp32, as the dashboard decodes
        m: attnviz.load(ROOT / "checkpoints" / f"{m}.safetensors", precision="fp32") for m in MODELS
    }
    if a.data:
        seen = {normalize(src).lower() for src, _ in read_corpus(a.data).pairs}
        inside = [
            s
            for s in [*EXAMPLES, *HARD, *STYLES, *NAMES, REORDERING]
            if normalize(s).lower() in seen
        ]
        first = [s for s in FIRST if normalize(s).lower() in seen]
        print(f"first sentences found in the corpus: {first or 'none'}")
        print(f"examples found in the corpus: {inside or 'none'}\n")
    # The cards' BLEU is what training measured at its end; `attnviz evaluate` measures it now.
    print("| checkpoint | attention | card BLEU greedy | beam 5 | size | epochs | training |")
    print("|---|---|---|---|---|---|---|")
    for name, tr in models.items():
        card, path = tr.card, ROOT / "checkpoints" / f"{name}.safetensors"
        bleu = card.get("test_bleu", {})
        print(
            f"| `{path.name}` | {tr.attention} | {bleu.get('beam1')} | {bleu.get('beam5')} | "
            f"{path.stat().st_size / 1e6:.1f} MB | {card.get('epochs')} "
            f"(best {card.get('best_epoch')}) | {card.get('train_seconds', 0) / 60:.0f} min |"
        )
    print()
    for sentences in (FIRST, EXAMPLES, HARD, STYLES, NAMES):
        print("| English | " + " | ".join(MODELS) + " |")
        print("|---" * (len(MODELS) + 1) + "|")
        outputs = {m: tr.translate_batch(sentences) for m, tr in models.items()}
        for i, sentence in enumerate(sentences):
            print(f"| {sentence} | " + " | ".join(_shown(outputs[m][i]) for m in MODELS) + " |")
        print()
    for name, tr in models.items():
        trace = tr.translate(REORDERING)
        fig = heatmaps.heatmap(trace, title=f"{name} ({tr.attention}): {trace.text}")
        path = ROOT / "docs" / f"heatmap-{name}.png"
        path.write_bytes(image_export.to_image(fig, "png"))
        print(f"\nwrote {path.relative_to(ROOT)}: {REORDERING} -> {trace.text}")


if __name__ == "__main__":
    main()
