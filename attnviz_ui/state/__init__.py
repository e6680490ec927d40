"""The page's state: session-state keys and the playback state machine, plain Python
(no streamlit), tested without a page.
"""
