"""Model rows read and written by statements composed once, for the busiest path (a result report).

Building a statement costs Django's ORM far more CPU than running it: a report's read of a table with its
round and both players' names took about a fifth of the report's CPU, nearly all of it spent composing the
SQL. These statements are written once, over the models' own table and column names:

- ``Reader`` converts the values it reads exactly as the ORM converts them (the backend's and each field's
  converters, so a JSON field is a dict and a date-time is aware on SQLite too) and builds ordinary model
  instances (``Model.from_db``), so nothing downstream can tell them from a queryset's;
- ``insert`` and ``update`` prepare each value as the ORM prepares it (the field's ``pre_save``, so
  ``auto_now_add`` holds, then ``get_db_prep_save``). The project has no save signals for them to skip.

``tests/events/test_reads.py`` does each both ways and compares every field, on both databases.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.db import connections
from django.db.models import Field, Model

Converter = Callable[[Any, Any, Any], Any]


@dataclass(frozen=True)
class Columns:
    """Some concrete fields of ``model`` (all by default), selected from the table under ``alias``."""

    model: type[Model]
    alias: str
    names: tuple[str, ...] = ()  # field names; empty: every concrete field

    @property
    def fields(self) -> list[Field[Any, Any]]:
        concrete = self.model._meta.concrete_fields
        return [f for f in concrete if not self.names or f.name in self.names or f.attname in self.names]

    def sql(self, using: str = "default") -> str:
        quote = connections[using].ops.quote_name
        return ", ".join(f"{quote(self.alias)}.{quote(str(f.column))}" for f in self.fields)

    def table(self, using: str = "default") -> str:
        quote = connections[using].ops.quote_name
        return f"{quote(self.model._meta.db_table)} {quote(self.alias)}"


def _converters(field: Field[Any, Any], using: str) -> tuple[Any, list[Converter]]:
    connection = connections[using]
    col = field.get_col(field.model._meta.db_table)
    return col, [*connection.ops.get_db_converters(col), *field.get_db_converters(connection)]


class Reader:
    """Turns the rows of one statement into instances of the models of its ``parts``, in order."""

    def __init__(self, parts: Sequence[Columns], using: str = "default") -> None:
        self.parts = list(parts)
        self.using = using
        self._plans = []
        for part in self.parts:
            fields = part.fields
            pk_at = next(i for i, f in enumerate(fields) if f.primary_key)
            convert = [(*_converters(f, using),) for f in fields]
            self._plans.append((part.model, [f.attname for f in fields], convert, pk_at))

    def select(self) -> str:
        return ", ".join(part.sql(self.using) for part in self.parts)

    def instances(self, row: Sequence[Any]) -> list[Model | None]:
        """One instance per part; None for a part whose primary key is NULL (the empty side of a LEFT JOIN)."""
        out: list[Model | None] = []
        at = 0
        connection = connections[self.using]
        for model, attnames, convert, pk_at in self._plans:
            values = list(row[at : at + len(convert)])
            at += len(convert)
            if values[pk_at] is None:
                out.append(None)
                continue
            for i, (col, converters) in enumerate(convert):
                for converter in converters:
                    values[i] = converter(values[i], col, connection)
            out.append(model.from_db(self.using, attnames, values))
        return out

    def fetch(self, sql: str, params: Sequence[Any]) -> list[list[Model | None]]:
        with connections[self.using].cursor() as cursor:
            cursor.execute(sql, params)
            return [self.instances(row) for row in cursor.fetchall()]


class Inserter:
    """``Model.objects.create()`` of one model by a statement written once: each field's value is prepared as
    the ORM prepares it (its ``pre_save``, so ``auto_now_add`` and defaults hold, then ``get_db_prep_save``)."""

    def __init__(self, model: type[Model], using: str = "default") -> None:
        connection = connections[using]
        quote = connection.ops.quote_name
        self.model, self.using = model, using
        self.fields = [f for f in model._meta.concrete_fields if not f.primary_key]
        columns = ", ".join(quote(str(f.column)) for f in self.fields)
        table = quote(model._meta.db_table)
        self.sql = f"INSERT INTO {table} ({columns}) VALUES ({', '.join(['%s'] * len(self.fields))})"
        self.returning = bool(connection.features.can_return_columns_from_insert)
        if self.returning:
            self.sql += f" RETURNING {quote(str(model._meta.pk.column))}"

    def insert(self, obj: Model) -> Model:
        connection = connections[self.using]
        values = [f.get_db_prep_save(f.pre_save(obj, True), connection=connection) for f in self.fields]
        with connection.cursor() as cursor:
            cursor.execute(self.sql, values)
            obj.pk = cursor.fetchone()[0] if self.returning else cursor.lastrowid
        obj._state.adding, obj._state.db = False, self.using
        return obj


class Updater:
    """``obj.save(update_fields=names)`` by a statement written once (values prepared as the ORM does)."""

    def __init__(self, model: type[Model], names: Sequence[str], using: str = "default") -> None:
        connection = connections[using]
        quote = connection.ops.quote_name
        self.using = using
        self.fields = [model._meta.get_field(name) for name in names]
        assignments = ", ".join(f"{quote(str(getattr(f, 'column', '')))} = %s" for f in self.fields)
        pk = quote(str(model._meta.pk.column))
        self.sql = f"UPDATE {quote(model._meta.db_table)} SET {assignments} WHERE {pk} = %s"

    def update(self, obj: Model) -> None:
        connection = connections[self.using]
        values = [f.get_db_prep_save(f.pre_save(obj, False), connection=connection) for f in self.fields]  # type: ignore[union-attr]
        with connection.cursor() as cursor:
            cursor.execute(self.sql, [*values, obj.pk])


@cache
def inserter(model: type[Model], vendor: str) -> Inserter:
    """The ``Inserter`` of ``model`` on the default database (``vendor`` keys the cache)."""
    return Inserter(model)


@cache
def updater(model: type[Model], names: tuple[str, ...], vendor: str) -> Updater:
    return Updater(model, names)


def insert(obj: Model) -> Model:
    """Insert a new instance (``Model.objects.create`` without composing the statement each time)."""
    return inserter(type(obj), connections["default"].vendor).insert(obj)


def update(obj: Model, names: Sequence[str]) -> None:
    """Write these fields of a saved instance (``save(update_fields=...)`` without composing the statement)."""
    updater(type(obj), tuple(names), connections["default"].vendor).update(obj)
