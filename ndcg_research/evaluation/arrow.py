"""Arrow arrays to and from numpy and bytes, zero copy where possible, without importing pandas.

``pyarrow.array(...)`` and ``Array.to_numpy()`` check whether their argument is a pandas object,
which imports pandas (about a third of a second) the first time: the command line, which never
needs pandas, would pay it on every run. These build the few kinds of arrays the evaluation
uses straight from their buffers.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyarrow as pa

from ..core.constraints import AnyOf, Array, Instance, Integer, Real
from ..core.params import validate_params

__all__ = ["int_array", "binary_array", "numbers", "ARROW_ARRAY", "IDS", "OPTIONAL_IDS", "INDICES", "OPTIONAL_INDICES"]

#: A pyarrow Array or ChunkedArray (of ids, or of numbers).
ARROW_ARRAY = Instance(pa.Array, pa.ChunkedArray, what="a pyarrow Array or ChunkedArray",
                       example=lambda: pa.chunked_array([[b"q"]]))
#: Positions, codes or counts computed by the evaluation: a 1-D numpy array of integers, taken as is
#: (O(1): only its type, dtype and dimension are looked at).
INDICES = Array(as_is=True, ndim=1, kinds="iu")
#: :data:`INDICES`, or None.
OPTIONAL_INDICES = Array(as_is=True, ndim=1, kinds="iu", none=True)
#: Ids (query names, document ids) as one pyarrow Array.
IDS = Instance(pa.Array, what="a pyarrow Array", example=lambda: pa.array([b"q"]))
#: :data:`IDS`, or None.
OPTIONAL_IDS = Instance(pa.Array, what="a pyarrow Array", none=True)


@validate_params(values=INDICES)
def int_array(values: np.ndarray) -> pa.Array:
    """An int64 Arrow array over the same memory as ``values``.

    Examples
    --------
    >>> int_array(np.array([3, 1])).to_pylist()
    [3, 1]
    """
    values = np.ascontiguousarray(values, dtype=np.int64)
    return pa.Array.from_buffers(pa.int64(), values.size, [None, pa.py_buffer(values)])


@validate_params(items=Instance(list, tuple, what="a list or tuple of bytes", example=list))
def binary_array(items: Sequence[bytes]) -> pa.Array:
    """A binary Arrow array of byte strings (one copy of their bytes).

    Examples
    --------
    >>> binary_array([b"q1", b"", b"doc"]).to_pylist()
    [b'q1', b'', b'doc']
    """
    lengths = np.fromiter((len(item) for item in items), dtype=np.int64, count=len(items))
    offsets = np.zeros(len(items) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    kind = pa.binary() if offsets[-1] < 2**31 else pa.large_binary()
    offsets = offsets.astype(np.int32 if kind == pa.binary() else np.int64)
    return pa.Array.from_buffers(kind, len(items), [None, pa.py_buffer(offsets), pa.py_buffer(b"".join(items))])


@validate_params(missing=AnyOf(Integer(None), Real(), none=True), array=ARROW_ARRAY)
def numbers(array: pa.Array | pa.ChunkedArray, missing: float | int | None = None) -> np.ndarray:
    """The values of a numeric Arrow array as a numpy array (zero copy for one chunk without nulls).

    Nulls become ``missing`` (an array with nulls and no ``missing`` is refused).

    Examples
    --------
    >>> numbers(pa.chunked_array([pa.array([1.5, 2.0]), pa.array([3.0])])).tolist()
    [1.5, 2.0, 3.0]
    >>> numbers(pa.array([4, None, 6]), missing=-1).tolist()
    [4, -1, 6]
    """
    if isinstance(array, pa.ChunkedArray):
        parts = [numbers.unchecked(chunk, missing) for chunk in array.chunks]
        if len(parts) == 1:
            return parts[0]
        return np.concatenate(parts) if parts else np.zeros(0, dtype=array.type.to_pandas_dtype())
    dtype = np.dtype(array.type.to_pandas_dtype())
    values = np.frombuffer(array.buffers()[1], dtype=dtype)[array.offset : array.offset + len(array)]
    if not array.null_count:
        return values
    if missing is None:
        raise ValueError("numbers: the array has nulls")
    bits = np.unpackbits(np.frombuffer(array.buffers()[0], dtype=np.uint8), bitorder="little")
    return np.where(bits[array.offset : array.offset + len(array)].astype(bool), values, missing)
