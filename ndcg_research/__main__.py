"""``python -m ndcg_research COMMAND ...``: see :mod:`ndcg_research.cli`."""

from ndcg_research.cli import console

if __name__ == "__main__":
    console()
