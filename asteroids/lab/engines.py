"""Run many independent jobs in this process, a process pool, or as Ray tasks.

Every engine returns the results in the order of the inputs, whatever order they finish
in, so a balance run or a ``verify`` gives the same output for any number of workers and on
any engine. The function given must be a module-level function of an importable module (it
is sent to workers by name).

Ray is optional (the ``[cluster]`` extra) and imported only when asked for; without it,
``EngineUnavailable`` carries the message to show.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import socket
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any, TypeVar

__all__ = ["ENGINES", "EngineUnavailable", "check_reachable", "import_ray", "ordered_map",
           "pool_map", "ray_map", "start_method"]

T = TypeVar("T")
R = TypeVar("R")

ENGINES = ("pool", "batch", "ray")
"""``pool``: this machine's cores, one game per task (``concurrent.futures``; the default);
``batch``: this machine's cores, each running batches of games (``lab.batch_run``); ``ray``:
Ray tasks, one game each."""

RAY_MISSING = (
    "--engine ray needs Ray, which comes with the optional [cluster] extra: "
    "python -m pip install 'asteroids[cluster]' (from a source checkout: "
    "python -m pip install '.[cluster]'). The default engine, --engine pool, needs nothing "
    "extra and uses every core of this machine."
)


class EngineUnavailable(Exception):
    """The engine asked for cannot run here; ``str()`` is the one-paragraph reason."""


def import_ray() -> Any:
    """The ``ray`` module.

    Raises:
        EngineUnavailable: when Ray is not installed (the message says how to install it).
    """
    try:
        import ray
    except ImportError:
        raise EngineUnavailable(RAY_MISSING) from None
    return ray


def check_reachable(address: str, timeout_s: float = 5.0) -> None:
    """Fail fast when a ``HOST:PORT`` Ray address does not answer (Ray itself retries a dead
    address for many minutes). Other forms (``auto``, ``ray://...``) are left to Ray.

    Raises:
        EngineUnavailable: when nothing accepts a connection there within ``timeout_s``.
    """
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit() or "/" in address:
        return
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout_s):
            pass
    except OSError as exc:
        raise EngineUnavailable(
            f"nothing answers at the Ray address {address} ({exc.strerror or exc}); start the "
            "cluster first ('ray start --head' prints its address) or check the address"
        ) from None


def start_method() -> str:
    """How pool workers start: ``fork`` on Linux while this process runs no other thread,
    else ``spawn``.

    A spawned worker is a fresh interpreter that imports numpy and the game before its first
    task: about 0.4 s of a 10 s balance run on two cores. A forked one starts from this
    process as it is, at once, and is safe where no other thread can hold a lock at the
    fork (hence the thread count; the progress bar runs no monitor thread) and where the
    system allows it (macOS does not, for its own frameworks). The core keeps no
    process-wide state, so a forked worker computes exactly what a spawned one does.
    """
    if (sys.platform.startswith("linux") and threading.active_count() == 1
            and "fork" in multiprocessing.get_all_start_methods()):
        return "fork"
    return "spawn"


def pool_map(fn: Callable[[T], R], items: Sequence[T], *, jobs: int | None = None,
             on_done: Callable[[], None] | None = None) -> Iterator[R]:
    """``fn`` over ``items`` in worker processes, yielded in input order.

    ``jobs`` 1 runs in this process (no pool); None means every core. Workers start by
    ``start_method()``: forked where that is safe (they begin at once), else fresh
    interpreters. Each task's inputs and results travel pickled either way.
    ``on_done`` is called once per finished item, as it finishes (for a progress bar).
    """
    jobs = min(jobs or os.cpu_count() or 1, max(len(items), 1))
    if jobs == 1:
        for item in items:
            result = fn(item)
            if on_done is not None:
                on_done()
            yield result
        return
    context = multiprocessing.get_context(start_method())
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=context)
    try:
        futures: list[Future[R]] = [pool.submit(fn, item) for item in items]
        pending = set(futures)
        next_out = 0
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            if on_done is not None:
                for _ in done:
                    on_done()
            while next_out < len(futures) and futures[next_out].done():
                yield futures[next_out].result()
                next_out += 1
    finally:
        # On an error or Ctrl-C, drop the games not started instead of finishing them all.
        pool.shutdown(wait=True, cancel_futures=True)


def ray_map(fn: Callable[[T], R], items: Sequence[T], *, address: str | None = None,
            num_cpus: int | None = None,
            on_done: Callable[[], None] | None = None) -> Iterator[R]:
    """``fn`` over ``items`` as Ray tasks (one task per item), yielded in input order.

    Connects to the Ray cluster at ``address``, or starts a local Ray (``num_cpus`` CPUs,
    default all; no dashboard) and stops it afterwards. When this process already runs Ray
    (``ray.init`` called before), that one is used and left running. On a cluster, this
    copy of the ``asteroids`` package is shipped to the workers (``runtime_env``
    ``py_modules``), so every node runs the same code; the nodes need numpy.

    Raises:
        EngineUnavailable: without Ray.
    """
    ray = import_ray()
    started = False
    if not ray.is_initialized():
        # Ray's start-up notices would scroll the progress bar away; its errors still show.
        options: dict[str, Any] = {"include_dashboard": False, "logging_level": logging.ERROR,
                                   "log_to_driver": False}
        try:
            if address:
                check_reachable(address)
                package = Path(__file__).resolve().parents[1]
                ray.init(address=address, runtime_env={"py_modules": [str(package)]},
                         **options)
            else:
                # "local": a new Ray of our own, even when a 'ray start' cluster runs here.
                ray.init(address="local", num_cpus=num_cpus, **options)
        except (OSError, RuntimeError, ValueError) as exc:
            where = f"the Ray cluster at {address}" if address else "a local Ray"
            raise EngineUnavailable(
                f"could not start or reach {where}: {exc}. Check the address ('ray status' "
                "on the head node prints it); a cluster with token authentication also "
                "needs RAY_AUTH_MODE=token and its token on this machine (Ray's security "
                "docs)") from None
        started = True
    try:
        task = ray.remote(num_cpus=1)(fn)
        refs = [task.remote(item) for item in items]
        slot = {ref: i for i, ref in enumerate(refs)}
        results: dict[int, R] = {}
        pending = list(refs)
        next_out = 0
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            if pending:
                more, pending = ray.wait(pending, num_returns=len(pending), timeout=0)
                done += more
            for ref, value in zip(done, ray.get(done), strict=True):
                results[slot[ref]] = value
                if on_done is not None:
                    on_done()
            while next_out in results:
                yield results.pop(next_out)
                next_out += 1
    finally:
        if started:
            ray.shutdown()


def ordered_map(fn: Callable[[T], R], items: Sequence[T], *, engine: str = "pool",
                jobs: int | None = None, address: str | None = None,
                on_done: Callable[[], None] | None = None) -> Iterator[R]:
    """``fn`` over ``items`` on ``engine`` ("pool" or "ray"), yielded in input order.

    ``jobs``: worker processes for the pool, CPUs of a local Ray (ignored with an
    ``address``). ``address``: a Ray cluster (``ray`` only).

    Raises:
        EngineUnavailable: for ``ray`` without Ray installed.
        ValueError: for an unknown engine.
    """
    if engine == "pool":
        return pool_map(fn, items, jobs=jobs, on_done=on_done)
    if engine == "ray":
        import_ray()  # fail here, not at the first next()
        return ray_map(fn, items, address=address, num_cpus=jobs, on_done=on_done)
    raise ValueError(f"unknown engine {engine!r}; known: {', '.join(ENGINES)}")
