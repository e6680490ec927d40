"""How this machine runs attnviz best, measured rather than guessed, and the process settings
made where a process starts: the precision "auto" takes for decoding
(:mod:`.decoding_precision`) and for training (:mod:`.training_precision`), built from the
same parts (the machine's key, :mod:`.machine`; timing in turn and a cache of measurements per
machine, :mod:`.probe`), and oneDNN's cache of products, bounded by the command line's and
the dashboard's entry (:mod:`.onednn`). Nothing here runs on import.

Imports ``model``, ``data`` and the root modules. A probe times the model's own methods
(``encode`` and ``step`` for decoding), not the search or the training loop above.
"""
