"""The server's heap, frozen out of the garbage collector's full collections."""

import gc
import sys
import types

from attnviz_ui.serving.process import freeze_heap


def test_the_heap_is_frozen_again_only_after_a_run_that_imported_modules(monkeypatch):
    freeze_heap()
    gc.unfreeze()
    freeze_heap()  # nothing imported since: nothing to freeze, no collection
    assert gc.get_freeze_count() == 0
    monkeypatch.setitem(sys.modules, "attnviz_imported_late", types.ModuleType("late"))
    freeze_heap()  # as after the first attribution imports captum
    assert gc.get_freeze_count() > 0
