"""``asteroids verify``: check many replay files, one line each, every file on its own.

One file never costs the others their result. Anything that goes wrong while one file is
read or re-simulated (a damaged file, or an error inside the game) is that file's line,
``unusable``, with the reason, and exit code 2. With ``--jobs N`` the files are checked in a
pool of worker processes; a worker that dies (killed, out of memory) breaks the pool, so the
files that were in flight are each checked again alone, in a fresh process, to find the one
that kills its checker (reported as unusable), and the rest go back into a new pool.
Results are printed in the order the files were given, as they arrive.

The work is bounded before it is done (``asteroids.replay.work``): a game longer than
``--max-ticks`` (default ``DEFAULT_MAX_TICKS``) is refused unread, a verification that will
take more than a few seconds says so in one line on stderr first, and ``--time-limit S``
stops every file still running S seconds after the command started (``stopped``, exit 2).
"""

from __future__ import annotations

import argparse
import functools
import json
import multiprocessing
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from asteroids import __version__
from asteroids.messages import one_line
from asteroids.replay.files import read_replay_bytes
from asteroids.replay.format import ReplayError, decode_replay
from asteroids.replay.work import (
    DEFAULT_MAX_TICKS,
    Deadline,
    time_limit_problem,
    work_line,
)
from asteroids.userfile import STDIN, display_name

__all__ = ["EXIT_BAD_INPUT", "EXIT_MISMATCH", "Item", "Result", "pooled", "run_verify",
           "verify_file", "verify_files"]

EXIT_BAD_INPUT = 2
"""A file is not a usable replay, or the time limit stopped its check (wins over a
mismatch)."""
EXIT_MISMATCH = 1
"""A well-formed replay re-simulated differently from how it was recorded."""

Item = tuple[str, bytes | str | None]
"""A file to check: its name, and its bytes when already read (standard input), or the
reason they could not be read."""
Result = dict[str, object]


def _unusable(name: str, error: str) -> Result:
    return {"file": name, "status": "bad-input", "error": error}


def _say(line: str) -> None:
    """One line on stderr, now (a worker process's too: they share the parent's stderr)."""
    print(one_line(f"asteroids: {line}"), file=sys.stderr, flush=True)


def verify_file(path: str, data: bytes | None = None, *, max_ticks: int = DEFAULT_MAX_TICKS,
                deadline: Deadline | None = None, notice: bool = True) -> Result:
    """Load and verify one replay (from ``data`` when given); a plain dict, so it crosses
    process boundaries. Never raises: any failure is the file's ``bad-input`` result.

    Args:
        max_ticks: the longest game accepted (``--max-ticks``).
        deadline: stop at it (``--time-limit``): the result is then ``stopped``.
        notice: state the work on stderr first when it will take more than ``NOTICE_S``.
    """
    from asteroids.replay.verify import verify_replay

    name = display_name(path)
    deadline = deadline if deadline is not None else Deadline()
    if deadline.passed():
        return _stopped_before(name, deadline)

    def on_rate(rate: float) -> None:
        left = deadline.left()
        limit = ("--time-limit S stops it sooner" if left is None else
                 f"the time limit may stop it in {left:.0f} s" if left < ticks / rate else
                 "within the time limit")
        _say(f"{name}: {work_line('verifying', ticks, rate)} ({limit})")

    try:
        if data is None:
            data = read_replay_bytes(path)
        replay = decode_replay(data, name, max_ticks=max_ticks)
        ticks = replay.ticks
        result = verify_replay(replay, deadline=deadline, on_rate=on_rate if notice else None)
    except ReplayError as exc:
        return _unusable(name, str(exc))
    except MemoryError:
        return _unusable(name, f"{name}: checking the replay needs more memory than this "
                         "process may use.")
    except Exception as exc:  # one file's failure is that file's line
        return _unusable(name, f"{name}: the replay could not be checked: {_what(exc)} (this "
                         "is a bug in asteroids: please report it with the file).")
    if result.stopped:
        return {"file": name, "status": "stopped", "ticks": result.ticks,
                "stopped_at": result.stopped_at, "game_version": replay.game_version,
                "problem": result.problem}
    out: Result = {
        "file": name, "status": "ok" if result.ok else "mismatch", "ticks": result.ticks,
        "final_score": result.final_score, "final_wave": result.final_wave,
        "final_hash": result.final_hash, "game_version": replay.game_version,
    }
    if replay.players != 1:
        out.update(players=replay.players, final_scores=list(replay.final_scores))
    if not result.ok:
        out.update(problem=result.problem, first_bad_checkpoint=result.first_bad_checkpoint,
                   first_bad_tick=result.first_bad_tick, expected_hash=result.expected_hash,
                   actual_hash=result.actual_hash, fields=list(result.fields))
    return out


def _stopped_before(name: str, deadline: Deadline) -> Result:
    """The result of a file whose turn came after the time limit."""
    return {"file": name, "status": "stopped", "stopped_at": 0,
            "problem": time_limit_problem(deadline.limit_s, 0, 0)}


def _what(exc: BaseException) -> str:
    text = str(exc).replace("\n", " ")
    if len(text) > 200:
        text = text[:197] + "..."
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _verify_item(item: Item, max_ticks: int = DEFAULT_MAX_TICKS,
                 deadline: Deadline | None = None) -> Result:
    path, data = item
    if isinstance(data, str):
        return _unusable(display_name(path), data)
    return verify_file(path, data, max_ticks=max_ticks, deadline=deadline)


def _verify_packed(packed: tuple[Item, int, Deadline | None]) -> Result:
    """``_verify_item`` of ``(item, max_ticks, deadline)``, for engines that pass one value."""
    return _verify_item(*packed)


def _died(item: Item, exc: BaseException) -> Result:
    name = display_name(item[0])
    return _unusable(name, f"{name}: the process checking it died ({_what(exc)}); the "
                     "replay may need more memory than this machine gives it.")


def _pool(jobs: int) -> ProcessPoolExecutor:
    # Fresh interpreters (spawn), not forks: nothing of this process's state leaks in.
    return ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("spawn"))


def _alone(fn: Callable[[Item], Result], item: Item) -> Result:
    """One file in a process of its own: its result, or the line saying its checker died or
    raised."""
    with _pool(1) as pool:
        try:
            return pool.submit(fn, item).result()
        except BrokenProcessPool as exc:
            return _died(item, exc)
        except Exception as exc:  # fn raised: still that item's line only
            return _raised(item, exc)


def _raised(item: Item, exc: BaseException) -> Result:
    name = display_name(item[0])
    return _unusable(name, f"{name}: the replay could not be checked: {_what(exc)}.")


def pooled(fn: Callable[[Item], Result], items: Sequence[Item], jobs: int) -> Iterator[Result]:
    """``fn`` over ``items`` in ``jobs`` worker processes, results in input order; a worker
    that dies costs only the result of the item that killed it (see the module docstring).
    ``fn`` must be a module-level function (workers import it by name)."""
    start = 0
    while start < len(items):
        pool = _pool(min(jobs, len(items) - start))
        broken = False
        try:
            futures: list[Future[Result]] = [pool.submit(fn, item)
                                             for item in items[start:]]
            for item, future in zip(items[start:], futures, strict=True):
                try:
                    result = future.result()
                except BrokenProcessPool:
                    broken = True
                    break
                except Exception as exc:  # fn raised after all: still that item's line only
                    result = _raised(item, exc)
                yield result
                start += 1
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
        if broken:
            # The files that were in flight (at most jobs + 1, taken in order) each run alone;
            # the one whose checker dies again is the culprit.
            for item in items[start:start + jobs + 1]:
                yield _alone(fn, item)
                start += 1


def verify_files(paths: Sequence[str], *, jobs: int | None = None, engine: str = "pool",
                 address: str | None = None, max_ticks: int = DEFAULT_MAX_TICKS,
                 deadline: Deadline | None = None) -> Iterator[Result]:
    """Verify each file, results in the order given (see the module docstring).

    ``jobs``: worker processes (None: every core; 1: this process), or for ``engine="ray"``
    the CPUs of a local Ray. ``-`` is standard input, read here once (workers have none).
    ``max_ticks``: the longest game accepted; ``deadline``: when every check still running
    stops (one for all the files, shared with the workers).

    Raises:
        EngineUnavailable: for ``engine="ray"`` without Ray.
    """
    stdin: bytes | str | None = None
    items: list[Item] = []
    for path in paths:
        if path == STDIN and stdin is None:
            try:
                stdin = read_replay_bytes(STDIN)
            except ReplayError as exc:
                stdin = str(exc)
        items.append((path, stdin if path == STDIN else None))
    if engine == "ray":  # a Ray task is a plain function: the limits travel with each item
        from asteroids.lab.engines import ordered_map

        packed = [(item, max_ticks, deadline) for item in items]
        return ordered_map(_verify_packed, packed, engine="ray", address=address, jobs=jobs)
    check = functools.partial(_verify_item, max_ticks=max_ticks, deadline=deadline)
    workers = min(jobs or os.cpu_count() or 1, len(items))
    if workers <= 1:
        return map(check, items)
    return pooled(check, items, workers)


def _report(results: Iterable[Result], as_json: bool) -> list[Result]:
    """Print one line per result as it arrives (text mode); return them all."""
    done = []
    for r in results:
        done.append(r)
        if as_json:
            if r["status"] == "stopped":  # stdout is the JSON; the note goes to stderr
                _say(f"{r['file']}: {r['problem']}")
            continue
        if r["status"] == "ok":
            score = (f"score {r['final_score']}" if "players" not in r else
                     f"{r['players']} players, scores "
                     + " / ".join(str(s) for s in r["final_scores"]))  # type: ignore[attr-defined]
            print(one_line(f"{r['file']}: ok: {r['ticks']} ticks, {score}, "
                           f"wave {r['final_wave']}, final hash {r['final_hash']}"), flush=True)
        elif r["status"] == "mismatch":
            recorded_by = r["game_version"]
            note = ("" if recorded_by == __version__ else
                    f" (recorded by asteroids {recorded_by}; this is {__version__})")
            print(one_line(f"{r['file']}: MISMATCH: {r['problem']}{note}"), flush=True)
        elif r["status"] == "stopped":
            print(one_line(f"{r['file']}: stopped: not verified within the time limit"),
                  flush=True)
            _say(f"{r['file']}: {r['problem']}")
        else:  # the error first (stderr), then the file's line that points up to it
            sys.stdout.flush()
            print(one_line(f"asteroids: {r['error']}"), file=sys.stderr, flush=True)
            print(one_line(f"{r['file']}: unusable (see the error above)"), flush=True)
    return done


def run_verify(args: argparse.Namespace) -> int:
    """``asteroids verify FILE... [--jobs N] [--json] [--engine pool|ray]``: the exit code."""
    from asteroids.lab.engines import EngineUnavailable

    if args.jobs is not None and args.jobs < 1:
        print(f"asteroids: verify: --jobs must be 1 or more; got {args.jobs}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.address is not None and args.engine != "ray":
        print("asteroids: verify: --address names a Ray cluster; it needs --engine ray",
              file=sys.stderr)
        return EXIT_BAD_INPUT
    deadline = Deadline.after(getattr(args, "time_limit", None))
    try:
        results = _report(verify_files(
            args.files, jobs=args.jobs, engine=args.engine, address=args.address,
            max_ticks=getattr(args, "max_ticks", DEFAULT_MAX_TICKS), deadline=deadline),
            args.json)
    except EngineUnavailable as exc:
        print(f"asteroids: verify: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    counts = {k: sum(r["status"] == k for r in results)
              for k in ("ok", "mismatch", "bad-input", "stopped")}
    code = (EXIT_BAD_INPUT if counts["bad-input"] or counts["stopped"] else
            EXIT_MISMATCH if counts["mismatch"] else 0)
    if args.json:
        print(json.dumps({"files": results, "total": counts, "exit_code": code}, indent=2))
    else:
        n = len(results)
        stopped = f", {counts['stopped']} stopped" if counts["stopped"] else ""
        print(f"{n} file{'s' if n != 1 else ''}: {counts['ok']} ok, {counts['mismatch']} "
              f"mismatch, {counts['bad-input']} unusable{stopped}")
    return code
