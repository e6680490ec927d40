"""Kept only for :mod:`attnviz.handout.page`, which imports ``NONE`` from here until its import
names :mod:`attnviz.model.model_config`. The networks themselves: :mod:`attnviz.model.encoder`,
:mod:`attnviz.model.decoders`, :mod:`attnviz.model.seq2seq`."""

from .model_config import NONE

__all__ = ["NONE"]
