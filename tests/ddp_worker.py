"""``python -m attnviz`` as torchrun runs it, with a rank that breaks on purpose for the tests:

    python -m torch.distributed.run --nproc_per_node 2 -m tests.ddp_worker FAIL_RANK train ...

Rank FAIL_RANK raises at its first training batch; every other rank trains as usual.
"""

import os
import sys

import attnviz.training.train
from attnviz.cli.main import main

BROKEN = "broken on purpose"


def _broken(*_):
    raise ValueError(f"rank {os.environ['RANK']}: {BROKEN}")


if __name__ == "__main__":
    fail_rank, *argv = sys.argv[1:]
    if os.environ["RANK"] == fail_rank:
        attnviz.training.train.make_batch = _broken
    sys.exit(main(argv))
