"""User input to padded batches (2-D, one row per query, short rows padded: grade 0, score -inf), and the
checks of their values. Nothing is dropped or coerced silently: what cannot be read exactly is refused."""

import numbers
from collections.abc import Iterator, Mapping, MappingView, Set
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._ranking import merged_by_float64

_NUMERIC_KINDS = "biuf"  # bool, signed and unsigned integers, floats


def _lists(kinds: str) -> str:
    return f"a 1-D list of {'booleans' if kinds == 'b' else 'numbers'} or a 2-D/ragged collection of them"


@dataclass(frozen=True)
class Batch:
    """Padded rows: ``values[q, :lengths[q]]`` is query q; ``single`` is True for 1-D input."""

    values: np.ndarray
    lengths: np.ndarray
    single: bool
    name: str

    @property
    def n_queries(self) -> int:
        return self.values.shape[0]

    def valid(self) -> np.ndarray:
        """Boolean mask of the real (not padded) entries."""
        return np.arange(self.values.shape[1]) < self.lengths[:, None]


def _numeric(array: np.ndarray, name: str, kinds: str, keep_integers: bool) -> np.ndarray:
    if array.size == 0:  # no entry can have a wrong type
        return array.astype(np.float64)
    if array.dtype.kind not in kinds:
        _refuse(array, name, kinds, f"dtype {array.dtype}")
    _check_exact(array, name)
    if keep_integers and array.dtype.kind == "i":
        # Signed integer grades stay integers (exact, and no float copy of a large batch);
        # every sum with the float discounts comes out float64 all the same.
        return array.astype(np.int64, copy=False)
    return array.astype(np.float64, copy=False)


def _check_exact(array: np.ndarray, name: str) -> None:
    """Refuse values that float64, in which everything is computed, would make of distinct values one: 64-bit integers
    beyond 2^53 that it changes, long doubles that it makes equal in one list (scores a tie, grades one grade). Other
    long doubles are rounded to float64, as ``evaluate`` reads them."""
    if array.dtype.itemsize <= 4 or array.dtype == np.float64:  # bool, small integers, float16/32: exact
        return
    if array.dtype.kind in "iu" and -(2**53) <= int(array.min()) and int(array.max()) <= 2**53:
        return  # every integer up to 2^53 is a float64
    rows = array.reshape(-1, array.shape[-1]) if array.ndim else array.reshape(1, 1)
    found: tuple[int, tuple[int, ...]] | None
    if array.dtype.kind == "f":
        found = merged_by_float64(rows)
    else:
        with np.errstate(invalid="ignore", over="ignore"):  # a float64 beyond the integer type wraps: changed too
            changed = np.argwhere(rows.astype(np.float64).astype(array.dtype) != rows)
        found = (int(changed[0, 0]), (int(changed[0, 1]),)) if changed.size else None
    if found is not None:
        query, columns = found
        shown = " and ".join(f"{rows[query, c]!s} (position {c + 1})" for c in columns)  # str: every digit
        raise ValueError(
            f"{name}{'' if array.ndim < 2 else f' (query {query})'} holds {shown}, which float64 makes "
            f"{float(rows[query, columns[0]])!r}: distinct values would become one; round or rescale {name} to "
            f"float64 first"
        )


def checked_array(data: Any, name: str, *, low: float) -> np.ndarray:
    """Numbers of any shape as float64, refused as the metric functions refuse their input: not numbers, not
    exact in float64, not finite or below ``low`` (for calling a ``Gain`` or ``Discount`` directly)."""
    array = np.asarray(_ordered(data, name))
    values = _numeric(array, name, _NUMERIC_KINDS, keep_integers=False)
    bad = ~np.isfinite(values) | (values < low)
    if bad.any():
        i = int(np.argmax(bad.ravel()))
        at = f"position {i + 1}" if values.ndim < 2 else f"index {tuple(map(int, np.unravel_index(i, values.shape)))}"
        raise ValueError(f"{name} must be finite and >= {low:g}, got {values.ravel()[i].item()!r} at {at}")
    return values


def _refuse(array: np.ndarray, name: str, kinds: str, found: str) -> None:
    """Raise for entries of the wrong type; Python integers beyond int64 (kept as objects) are named as such."""
    if array.dtype.kind == "O" and all(isinstance(x, numbers.Real) for x in array.flat):  # (numbers: an int is big)
        largest = max((int(x) for x in array.flat if isinstance(x, numbers.Integral)), key=abs, default=0)
        if abs(largest) > np.iinfo(np.int64).max:
            raise ValueError(
                f"{name} holds integers beyond numpy's int64 and uint64 (e.g. {largest}), kept only as Python "
                f"objects: rescale them (float64 holds every integer exactly only up to 2**53)"
            )
    wanted = "booleans" if kinds == "b" else "numeric (bool, int or float)"
    raise TypeError(f"{name} must be {wanted}, got {found} in {_preview(array)}")


def _preview(array: Any) -> str:
    text = np.array2string(np.asarray(array, dtype=object).ravel()[:6], separator=", ", threshold=6)
    return text if np.size(array) <= 6 else text[:-1] + ", ...]"


def _masked_error(name: str) -> TypeError:
    return TypeError(
        f"{name} must not be a numpy masked array: masked entries would count as present in some steps "
        f"and not in others; pass data.filled(0) for grades (masked = not relevant), drop the masked "
        f"documents (ragged rows), or mark them with judged="
    )


def _ordered(data: Any, name: str, *, top: str | None = None) -> Any:
    """``data`` as numpy reads it without loss: iterators listed; masked arrays, sets and mappings refused (and at
    the ``top`` level, whose entries are of the ``top`` kinds, strings, scalars and None); array subclasses as plain
    arrays."""
    if top and (isinstance(data, (str, bytes)) or np.isscalar(data) or data is None):
        raise TypeError(f"{name} must be {_lists(top)}, got {data!r}")
    if isinstance(data, np.ma.MaskedArray):
        raise _masked_error(name)
    if isinstance(data, Iterator):
        return list(data)
    if isinstance(data, (Set, Mapping, MappingView)):
        raise TypeError(f"{name} must be an ordered sequence (a list or an array), got {type(data).__name__}")
    if isinstance(data, np.ndarray) and type(data) is not np.ndarray:
        return np.asarray(data)  # e.g. np.matrix, whose rows would stay 2-D
    if hasattr(data, "columns") and hasattr(data, "to_numpy"):  # a DataFrame: one row per query (not its labels)
        dtypes = set(data.dtypes)
        if len(dtypes) == 1 and isinstance(dtype := dtypes.pop(), np.dtype) and dtype.kind != "O":
            return data.to_numpy()  # one numpy dtype: as it is
        if 0 in data.shape:  # no rows or no columns: its shape, which an empty list of rows would lose (0 queries)
            return np.empty(data.shape)
        # nullable, object or mixed columns (pandas would make an int64 column beside a float64 one float64): read
        # as a list of rows of Python numbers, as a list is, exactly (a missing value stays, and is refused)
        return data.to_numpy(dtype=object).tolist()
    return data


def _check_python_ints(data: Any, array: np.ndarray, name: str) -> None:
    """Refuse Python integers beyond 2^53 that float64 changed where numpy read them beside floats (``array``)."""
    big = np.abs(array) >= 2**53  # every integer up to 2^53 is a float64
    if not big.any():
        return
    given = np.asarray(data, dtype=object)  # the integers as given; Python compares an int with a float exactly
    for where in map(tuple, np.argwhere(big)):  # (values this large are few)
        if isinstance(given[where], numbers.Integral) and int(given[where]) != float(array[where]):  # exact in Python
            raise ValueError(
                f"{name}{f' (query {where[0]})' if array.ndim == 2 else ''} holds the integer {given[where]} "
                f"(position {where[-1] + 1}) beside floats, which float64 makes {float(array[where])!r}: distinct "
                f"values would become one; round or rescale {name} to float64 first"
            )


# Where an empty list is refused: how to score a query for which nothing was returned.
_EMPTY_HINT = " (to score an empty result 0, give the query's known grades with ideal=)"
_IDEAL_NEEDS = "every query needs at least one known grade (all 0 when none is relevant: zero_ideal then applies)"


def as_batch(
    data: Any,
    *,
    name: str,
    fill: float,
    kinds: str = _NUMERIC_KINDS,
    keep_integers: bool = False,
    allow_empty: bool = False,
    empty_hint: str = _EMPTY_HINT,
) -> Batch:
    """One ranked list (1-D) or many (2-D, or ragged) as a :class:`Batch` padded with ``fill``; values unchecked.
    Float64, or int64 for signed integers if ``keep_integers``; an empty list needs ``allow_empty``; ``empty_hint``
    ends the message refusing one (a function without ``ideal=`` gives "")."""
    data = _ordered(data, name, top=kinds)
    if isinstance(data, (list, tuple)):  # numpy would stack equal-length masked rows into a plain array
        masked = [index for index, row in enumerate(data) if isinstance(row, np.ma.MaskedArray)]
        if masked:
            raise _masked_error(f"{name}[{masked[0]}]")
    try:
        array = np.asarray(data)
    except ValueError:  # ragged: numpy refuses to build a rectangle
        array = None
    if (
        array is not None
        and array.dtype.kind == "O"
        and array.ndim
        and all(isinstance(x, numbers.Real) for x in array.flat)
    ):
        data = array.tolist()  # numbers held as objects (a pandas object column): read as the same list is
        array = np.asarray(data)
    if array is not None and array.dtype == np.float64 and not isinstance(data, np.ndarray):
        _check_python_ints(data, array, name)
    if array is not None and array.dtype.kind == "O":
        if array.ndim == 0:
            raise TypeError(f"{name} must be {_lists(kinds)}, got {data!r}")
        # Numbers held as objects (e.g. None).
        if array.ndim == 1 and all(np.ndim(row) == 0 and not isinstance(row, Iterator) for row in array):
            _refuse(array, name, kinds, "objects")
        array = None
    if array is None:
        return _ragged(data, name, fill, kinds, keep_integers, allow_empty, empty_hint)
    if array.ndim not in (1, 2):
        raise ValueError(f"{name} must be 1-D (one query) or 2-D/ragged (one row per query), got {array.ndim}-D")
    values = _numeric(array, name, kinds, keep_integers)
    single = values.ndim == 1
    if single:
        values = values[None, :]
    if values.shape[0] == 0 or (values.shape[1] == 0 and not allow_empty):
        shape = "" if single else f" (shape {array.shape})"
        needs = "a ranked list needs at least one document" if single else "every query needs at least one document"
        if name == "ideal":  # the hint below is about ideal=: no help here
            needs, hint = _IDEAL_NEEDS, ""
        else:
            hint = empty_hint if values.shape[0] else ""
        raise ValueError(f"{name} is empty{shape}; {needs}{hint}")
    lengths = np.full(values.shape[0], values.shape[1])
    if values.shape[1] == 0:  # nothing returned: one column of padding keeps every kernel's shapes simple
        values = np.full((values.shape[0], 1), fill, dtype=values.dtype)
    return Batch(values, lengths, single=single, name=name)


def _ragged(
    data: Any, name: str, fill: float, kinds: str, keep_integers: bool, allow_empty: bool, empty_hint: str
) -> Batch:
    try:
        rows = list(data)
    except TypeError:
        raise TypeError(f"{name} must be a sequence of numbers or of 1-D lists, got {type(data).__name__}") from None
    if not rows:
        raise ValueError(f"{name} is empty; give at least one query")
    arrays = []
    read_as_floats: list[tuple[str, Any, np.ndarray]] = []  # rows numpy read as float64 from Python numbers
    for index, row in enumerate(rows):  # parsing input only: per-query work happens on the padded array
        label = f"{name}[{index}]"
        if isinstance(row, (str, bytes)):
            raise TypeError(f"{label} must be numeric, got {row!r}")
        try:
            row = _ordered(row, label)
            array = np.asarray(row)
        except ValueError:  # numpy's "inhomogeneous shape": numbers beside lists, or lists of unequal lengths
            raise ValueError(
                f"{label} must be a 1-D list (one query), got a nested list of uneven depth or length "
                f"{_preview(np.asarray(row, dtype=object))}; mixing numbers and lists is not allowed"
            ) from None
        if array.ndim != 1:
            raise ValueError(
                f"{label} must be a 1-D list (one query), got {array.ndim}-D {_preview(array)}; "
                f"mixing numbers and lists is not allowed"
            )
        if array.dtype == np.float64 and not isinstance(row, np.ndarray):
            read_as_floats.append((label, row, array))
        if array.size == 0 and not allow_empty:
            needs = _IDEAL_NEEDS if name == "ideal" else "every query needs at least one document" + empty_hint
            raise ValueError(f"{label} is empty; {needs}")
        arrays.append(_numeric(array, label, kinds, keep_integers))
    if read_as_floats and (np.abs(np.concatenate([a for _, _, a in read_as_floats])) >= 2**53).any():
        for label, row, array in read_as_floats:  # one test of them all first: integers this large are rare
            _check_python_ints(row, array, label)
    lengths = np.array([a.size for a in arrays])
    values = np.full((len(arrays), max(lengths.max(), 1)), fill, dtype=np.result_type(*arrays))
    values[np.arange(values.shape[1]) < lengths[:, None]] = np.concatenate(arrays)
    return Batch(values, lengths, single=False, name=name)


def _first_bad(batch: Batch, bad: np.ndarray) -> str:
    """Describe where the first offending entry sits, e.g. 'query 2, position 5'."""
    query, position = np.argwhere(bad & batch.valid())[0]
    value = float(batch.values[query, position])
    where = f"position {position + 1}" if batch.single else f"query {query}, position {position + 1}"
    return f"{value!r} at {where}"


def check_grades(batch: Batch, *, upper_checked: bool = False) -> None:
    """Reject NaN, infinite and negative grades; ``upper_checked``: the caller ruled out +inf (a finite DCG)."""
    values = batch.values
    low = values.min()
    if not upper_checked and not np.isfinite(values.max()):
        _raise_nonfinite(batch)
    if not low >= 0:  # False for NaN too
        if np.isnan(low) or np.isinf(low):
            _raise_nonfinite(batch)
        raise ValueError(
            f"{batch.name} must be >= 0 (graded relevance), got {_first_bad(batch, values < 0)}; "
            "map negative labels to grades >= 0 (trec_eval gives a negative grade no gain; adding a constant to "
            "every label would make non-relevant documents relevant)"
        )


def _raise_nonfinite(batch: Batch) -> None:
    raise ValueError(f"{batch.name} must be finite, got {_first_bad(batch, ~np.isfinite(batch.values))}")


def check_scores(batch: Batch) -> None:
    """Reject NaN and infinite scores (padding, -inf by design, is not looked at)."""
    rectangular = np.all(batch.lengths == batch.values.shape[1])
    real = batch.values if rectangular else batch.values[batch.valid()]
    if not np.isfinite(real).all():
        _raise_nonfinite(batch)


def check_aligned(first: Any, second: Any, names: tuple[str, str]) -> None:
    """Refuse two pandas objects whose labels differ: paired by position here, they would be misaligned silently."""
    for axis, labels, keyword in (("index", "indexes", ""), ("columns", "columns", "columns=")):
        # (a list's .index is a method: only pandas labels, which have .equals, are compared)
        labels_a, labels_b = getattr(first, axis, None), getattr(second, axis, None)
        equals = getattr(labels_a, "equals", None)
        if equals is not None and hasattr(labels_b, "equals") and not equals(labels_b):
            raise ValueError(
                f"{names[0]} and {names[1]} are pandas objects with different {labels}: values are paired by "
                f"position, not by label; align them first ({names[1]}.reindex({keyword}{names[0]}.{axis})) or pass "
                ".to_numpy()"
            )


def check_same_shape(a: Batch, b: Batch) -> None:
    """Require one score per label, query by query."""
    if a.single != b.single or a.n_queries != b.n_queries:
        raise ValueError(
            f"{a.name} and {b.name} must describe the same queries: got "
            f"{'one list' if a.single else f'{a.n_queries} queries'} and "
            f"{'one list' if b.single else f'{b.n_queries} queries'}"
        )
    mismatch = np.flatnonzero(a.lengths != b.lengths)
    if mismatch.size:
        q = mismatch[0]
        where = "" if a.single else f" for query {q}"
        raise ValueError(f"{a.name} and {b.name} have different lengths{where}: {a.lengths[q]} and {b.lengths[q]}")


def judged_mask(judged: Any, like: Batch) -> np.ndarray:
    """The boolean ``judged`` mask as a padded 2-D array shaped like ``like``."""
    mask = as_batch(judged, name="judged", fill=0.0, kinds="b", allow_empty=True)
    check_same_shape(like, mask)
    return (mask.values != 0) & mask.valid()


def condense(batch: Batch, judged: np.ndarray, *, fill: float) -> Batch:
    """Drop unjudged documents, the others keeping their order (the "condensed list" of Sakai 2007; trec_eval -J)."""
    order = np.argsort(~judged, axis=1, kind="stable")  # judged first, order kept
    values = np.take_along_axis(batch.values, order, 1)
    lengths = judged.sum(axis=1)
    values[np.arange(values.shape[1]) >= lengths[:, None]] = fill
    return Batch(values, lengths, batch.single, batch.name)
