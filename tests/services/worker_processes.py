"""The crash and concurrency tests' worker processes (``tests.services.workers``), forked from
one server process that has imported turnir once (multiprocessing's forkserver, with the module
preloaded). A new interpreter importing turnir costs about 2 s of CPU on these cores; the crash
test started 16 and the concurrency tests 4, each on SQLite and PostgreSQL. A forked worker
starts at once, with nothing open: it opens its own database connections.

To the tests a worker looks like ``subprocess.Popen(..., text=True)``: ``stdout`` is a pipe
carrying the worker's JSON lines as they are written (flushed one by one: a line read is a call
that returned), ``kill()`` sends SIGKILL, ``communicate()`` gives the rest of its output and its
standard error, ``returncode`` is -9 after a kill.
"""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import threading
from multiprocessing.connection import Connection
from typing import TextIO

_CONTEXT = multiprocessing.get_context("forkserver")
_CONTEXT.set_forkserver_preload(["tests.services.workers"])


def _run(args: list[str], out: Connection, err: Connection) -> None:
    """In the forked worker: its standard output and error are the parent's pipes."""
    from tests.services import workers

    os.dup2(out.fileno(), 1)
    os.dup2(err.fileno(), 2)
    out.close()
    err.close()
    workers.main(args)


def _reader(connection: Connection) -> TextIO:
    """A text file reading the pipe behind ``connection`` (which is closed)."""
    fd = os.dup(connection.fileno())
    connection.close()
    return open(fd, encoding="utf-8")  # closed by Worker.communicate


class Worker:
    """``python -m tests.services.workers ARGS``, forked (above)."""

    def __init__(self, *args: object) -> None:
        out_read, out_write = _CONTEXT.Pipe(duplex=False)
        err_read, err_write = _CONTEXT.Pipe(duplex=False)
        self._process = _CONTEXT.Process(target=_run, args=([str(a) for a in args], out_write,
                                                            err_write), daemon=True)
        self._process.start()
        out_write.close()  # the worker holds the only writing ends: its death is the end
        err_write.close()
        self.stdout = _reader(out_read)
        self._stderr = _reader(err_read)

    @property
    def returncode(self) -> int | None:
        return self._process.exitcode

    def kill(self) -> None:
        self._process.kill()

    def communicate(self, timeout: float | None = None) -> tuple[str, str]:
        """The rest of the worker's output and its standard error, once it has ended
        (``subprocess.TimeoutExpired`` after ``timeout`` seconds, as ``Popen``)."""
        texts: dict[str, str] = {}
        readers = [threading.Thread(target=lambda k=key, f=file: texts.__setitem__(k, f.read()),
                                    daemon=True)
                   for key, file in (("out", self.stdout), ("err", self._stderr))]
        for reader in readers:
            reader.start()
        self._process.join(timeout)
        if self._process.exitcode is None:
            raise subprocess.TimeoutExpired(f"tests.services.workers (pid {self._process.pid})",
                                            timeout or 0)
        for reader in readers:
            reader.join()
        self.stdout.close()
        self._stderr.close()
        return texts["out"], texts["err"]
