"""Temporary: the old names of two checks, kept until the code that still imports them is merged.

``check_integer`` and ``check_number`` are :func:`ndcg_research._validation.check_int` and
``check_real`` under their former names and keywords. The studies call them; once their owners
call ``ndcg_research._validation`` directly (issue 23), this module is deleted.
"""

from typing import Any

from .._validation import check_int, check_real

__all__ = ["check_integer", "check_number"]


def check_integer(value: Any, name: str, *, minimum: int | None = 1, allow_none: bool = False) -> Any:
    """``check_int(value, name, low=minimum, none=allow_none)``."""
    return check_int(value, name, low=minimum, none=allow_none)


def check_number(value: Any, name: str) -> float:
    """``check_real(value, name)``: a finite real number."""
    return check_real(value, name)
