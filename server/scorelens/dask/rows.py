"""A collection's partitions and the texts of each: the rows of a ``dask.dataframe.DataFrame``,
or the records (dicts) of a ``dask.bag.Bag``, one segment each."""

from __future__ import annotations

import dask.bag as db
import dask.dataframe as dd
import numpy as np
import pandas as pd
from dask.delayed import Delayed


def partitions(collection: dd.DataFrame | db.Bag, hypothesis: str, references: list[str]) -> list[Delayed]:
    """One lazy object per partition: a DataFrame of the named columns, or a list of records."""
    if isinstance(collection, dd.DataFrame):
        # selecting the columns first checks their names now and reads no other column
        return collection[[hypothesis, *references]].to_delayed()
    if isinstance(collection, db.Bag):
        return collection.to_delayed()
    raise TypeError(f"expected a dask DataFrame or Bag, not {type(collection).__name__}")


def texts(part, hypothesis: str, references: list[str]) -> tuple[list[str], list[list[str]]]:
    """A partition's hypotheses and its reference streams (one list per reference column)."""
    if isinstance(part, pd.DataFrame):
        return _checked(hypothesis, part[hypothesis].tolist()), [_checked(name, part[name].tolist()) for name in references]
    records = list(part)  # a Bag's partition: its records
    return _field(records, hypothesis), [_field(records, name) for name in references]


def _field(records: list[dict], name: str) -> list[str]:
    try:
        return _checked(name, [r[name] for r in records])
    except KeyError:
        missing = next(r for r in records if name not in r)
        raise ValueError(f"a record has no field {name!r}: {str(missing)[:80]}") from None


def _checked(name: str, values: list) -> list[str]:
    """The column's (or field's) values, checked to be strings: a missing value is named as such
    rather than by its place in one partition."""
    for value in values:
        if isinstance(value, (list, tuple, np.ndarray)):  # a JSON list, a Parquet list
            raise TypeError(f"{name!r} holds a list of {len(value)} texts, not a string: on Dask each reference is a column (or field) of its own, named one by one")
        if not isinstance(value, str):
            raise TypeError(f"{name!r} holds {value!r}, not a string (a missing value?)")
    return values
