"""Notebook 06: appending non-relevant documents, truncation conventions, pooling with incomplete judgments."""
