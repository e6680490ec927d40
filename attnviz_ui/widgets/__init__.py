"""Widgets and page parts shared by the views: HTML and Vega widgets, the page's style, the
sidebar, the language switch, notes. Imports ``state`` only.
"""
