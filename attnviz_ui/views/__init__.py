"""The parts of a page, one module each: what one view draws, from values the serving layer
hands it. Imports ``widgets``, ``state`` and ``serving``, never a page.
"""
