"""``python -m ndcg_research COMMAND ...``: see :mod:`ndcg_research.cli`."""

import sys

from ndcg_research.cli import main

if __name__ == "__main__":
    sys.exit(main())
