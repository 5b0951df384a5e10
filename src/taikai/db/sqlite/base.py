"""Django's SQLite backend, with writers taking turns instead of polling.

SQLite admits one writer at a time; the others retry with growing sleeps until their busy timeout, so
under a burst (fifty phones reporting at the end of a round) they waste time asleep, and an unlucky one can
be passed over until "database is locked". Here every transaction (BEGIN IMMEDIATE, taken by
``transaction.atomic``) first queues on a lock in the process (threads) and then on an exclusive file lock
beside the database (processes), which the kernel hands over in turn; the lock is held only for the
transaction, not for the whole request. Readers are not affected (WAL).
"""

from __future__ import annotations

import fcntl
import threading
from pathlib import Path
from typing import Any

from django.db.backends.sqlite3 import base

_in_process = threading.Lock()


class DatabaseWrapper(base.DatabaseWrapper):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._writer_file: Any = None

    def _lock_path(self) -> Path:
        name = Path(str(self.settings_dict["NAME"]))
        return name.with_name(name.name + ".writers.lock")

    def _start_transaction_under_autocommit(self) -> None:
        if self._writer_file is None and not self.is_in_memory_db():
            _in_process.acquire()
            try:
                handle = open(self._lock_path(), "a+b")  # noqa: SIM115 (held until the transaction ends)
                fcntl.flock(handle, fcntl.LOCK_EX)
            except BaseException:
                _in_process.release()
                raise
            self._writer_file = handle
        try:
            super()._start_transaction_under_autocommit()  # type: ignore[misc]  # not in django-stubs
        except BaseException:
            self._release_writer()
            raise

    def _release_writer(self) -> None:
        handle, self._writer_file = self._writer_file, None
        if handle is not None:
            try:
                fcntl.flock(handle, fcntl.LOCK_UN)
                handle.close()
            finally:
                _in_process.release()

    def _set_autocommit(self, autocommit: bool) -> None:
        super()._set_autocommit(autocommit)  # type: ignore[misc]  # not in django-stubs
        if autocommit:  # the outermost atomic block has committed or rolled back
            self._release_writer()

    def close(self) -> None:
        try:
            super().close()
        finally:
            self._release_writer()
