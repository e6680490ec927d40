"""The page's state: session-state keys, the playback state machine and the page's address
(a link's query parameters, read and written), plain Python (no streamlit), tested without a
page.
"""
