"""What the page loads and runs: the one part of the dashboard that reads files, runs models,
keeps caches and sets the process up.

Every cached load is a ``functools.lru_cache`` of the process, shared by every session; a load
from a file is keyed by the file's version (:func:`.models.file_version`). Decodings run in the
server's decoding processes (:mod:`.decoder_process`). The views and pages receive what they
draw as plain values (Traces, Refused, cards, figures); what does not change from run to run
is made once (:mod:`.figures`). Imports ``attnviz``, the builders, and streamlit's session
state only through the widgets that name the session (:mod:`..widgets.language`: its
language; :mod:`..widgets.session`: its key), and :mod:`..widgets.vega` for a chart's spec
as it is drawn.
"""
