"""Widgets and page parts shared by the views: HTML and Vega widgets, the page's style, the
language switch, the session's key, notes, the Share button's link and QR code. Imports
``state`` and ``attnviz`` (the values a widget draws: tables, corpus notes, tokens), never
serving, views or pages.
"""
