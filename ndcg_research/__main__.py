"""``python -m ndcg_research COMMAND ...``: see :mod:`ndcg_research.cli`."""

import os
import sys

from ndcg_research.cli import main

# Commands whose file readers run Arrow's C++ thread pools (evaluation.readers).
_ARROW_COMMANDS = {"evaluate", "compare"}

if __name__ == "__main__":
    status = main()
    if sys.argv[1:2] and sys.argv[1] in _ARROW_COMMANDS:
        # Arrow's idle pool threads can abort the process while the interpreter tears them down
        # ("terminate called without an active exception", exit -6; apache/arrow#34314), seen once in
        # CI after a complete, correct run. The command's work and output are done: flush and leave
        # without that teardown.
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except BrokenPipeError:  # a reader such as `head` closed the pipe: its business, not an error
            pass
        os._exit(status)
    sys.exit(status)
