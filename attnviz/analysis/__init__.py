"""What a translation's attention says: diagnostics, word alignments and AER, attribution,
evaluation (BLEU, copying, BLEU by source length and the source words a translation lost),
model comparison, where teaching moved a model's attention, and the history of alignment over
training. Imports ``decoding``, ``model`` and ``data``.
"""
