"""Load settings: built-in defaults, then TOML files, then ``--set`` overrides, validated.

Every source is checked completely and every problem is collected, so one run reports all
of them (``ConfigError.errors``), each with its file, line, column, dotted key and a stable
code. Nothing is applied from a broken config: ``load_config`` either returns a valid,
immutable ``Config`` or raises. This module layers the sources (later ones win, lists are
replaced whole, a table no layer touches is shared rather than copied); reading a source is
``asteroids.config.reading``, an override's text ``asteroids.config.overrides``, one
source's checks ``asteroids.config.validate`` and the checks across keys
``asteroids.config.cross_field``.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Sequence
from typing import Any

from asteroids.config.bundled import preset_bytes
from asteroids.config.cross_field import cross_field_issues
from asteroids.config.errors import OVERRIDE_SOURCE, ConfigError, ConfigIssue
from asteroids.config.knobs import knobs
from asteroids.config.locate import Path
from asteroids.config.overrides import parse_override
from asteroids.config.reading import Source, TextFile, read_source
from asteroids.config.schema import Config
from asteroids.config.validate import LEAF_PATHS, Validator, leaf
from asteroids.userfile import display_name

__all__ = ["load_config", "load_config_over", "load_config_text", "load_preset"]


def _as_tree(obj: Any) -> dict[str, Any]:
    """One level of a config dataclass as a dict: its nested tables stay dataclasses until a
    layer sets something in them (``_merge``), so a layer costs what it sets."""
    return {k.name: getattr(obj, k.name) for k in knobs(type(obj))}


def _merge(tree: dict[str, Any], partial: dict[str, Any]) -> None:
    for name, value in partial.items():
        if isinstance(value, dict):
            node = tree[name]
            if not isinstance(node, dict):
                node = tree[name] = _as_tree(node)
            _merge(node, value)
        else:
            tree[name] = value


def _build(cls: type, tree: dict[str, Any] | Any, base: Any = None) -> Any:
    """The dataclass of a merged tree: a table no layer touched is the dataclass it was, and
    one whose values are all still ``base``'s is ``base`` itself, so settings changed a few
    at a time share what they keep."""
    if not isinstance(tree, dict):
        return tree
    kwargs = {}
    same = base is not None
    for k in knobs(cls):
        value = tree[k.name]
        if k.kind == "table" and k.cls:
            value = _build(k.cls, value, None if base is None else getattr(base, k.name))
        kwargs[k.name] = value
        same = same and value is getattr(base, k.name)
    return base if same else cls(**kwargs)


def _with_before_values(obj: Any) -> Any:
    """A config dataclass with each knob that declares a ``before`` value (see
    ``asteroids.config.declare.knob``) set to it instead of its default."""
    changes = {}
    for k in knobs(type(obj)):
        value = getattr(obj, k.name)
        if k.kind == "table" and k.cls is not None:
            sub = _with_before_values(value)
            if sub is not value:
                changes[k.name] = sub
        elif "before" in k.meta:
            changes[k.name] = k.meta["before"]
    return dataclasses.replace(obj, **changes) if changes else obj


def load_config(
    *paths: str | os.PathLike[str],
    overrides: Sequence[str] = (),
    recorded: bool = False,
) -> Config:
    """The built-in defaults, layered with each file in order and then each override.

    Files may set any subset of keys; later layers win, and lists (including
    ``[[obstacles]]``) are replaced whole. Ints are accepted for float knobs; floats for int
    knobs, booleans for numbers, nan and inf are not.

    Args:
        *paths: TOML files, applied in order.
        overrides: ``KEY=VALUE`` texts (``ship.thrust_px_per_s2=400``), applied last.
        recorded: the files are settings a version of the game recorded whole (a replay's):
            a knob missing from them did not exist in that version, so it starts from its
            ``before`` value (the one that plays as that version did), not its default.

    Returns:
        The validated, immutable config.

    Raises:
        ConfigError: listing every problem in every source (nothing is partially applied).
    """
    base = _with_before_values(Config()) if recorded else Config()
    return _load(base, None, paths, overrides)


def load_config_over(base: Config, overrides: Sequence[str], *, source: str) -> Config:
    """``base`` layered with ``overrides``, with the same checks as ``load_config``.

    For settings changed on top of settings already loaded (a live reload, a replay's
    recorded changes): ``base`` is taken as it is, without writing it out as TOML and
    reading it back, so a change costs the same whatever the size of the settings.

    Args:
        base: settings this loader built (they are not checked again one by one).
        overrides: ``KEY=VALUE`` texts, applied in order.
        source: names ``base`` in error messages (a cross-field problem may lie in it).

    Raises:
        ConfigError: listing every problem (nothing is partially applied).
    """
    return _load(base, source, (), overrides)


def _load(base: Config, base_source: str | None, paths: Sequence[str | os.PathLike[str]],
          overrides: Sequence[str]) -> Config:
    """``base`` layered with ``paths`` then ``overrides``; ``base_source`` names ``base`` in
    errors (None: the built-in defaults)."""
    issues: list[ConfigIssue] = []
    sources: list[Source] = []
    validators: list[Validator] = []
    tree = _as_tree(base)
    setter: dict[Path, Source] = {}
    if base_source is not None:
        src = Source(order=len(sources), name=base_source)
        sources.append(src)
        setter = dict.fromkeys(LEAF_PATHS, src)

    def layer(src: Source, data: dict[str, Any]) -> None:
        validator = Validator(src, issues)
        partial = validator.table(data, Config, ())
        _merge(tree, partial)
        for p in validator.set_paths:
            setter[leaf(p)] = src
        validators.append(validator)

    for path in paths:
        src = Source(order=len(sources), name=display_name(path))
        sources.append(src)
        data = read_source(src, path, issues)
        if data is not None:
            layer(src, data)

    for index, text in enumerate(overrides, start=1):
        src = Source(order=len(sources), name=OVERRIDE_SOURCE, override=text,
                      override_index=index)
        sources.append(src)
        try:
            key, value = parse_override(text)
        except ValueError as exc:
            issues.append(ConfigIssue(source=OVERRIDE_SOURCE, line=index, col=None, key="",
                                      code="syntax", message=str(exc), expected="KEY=VALUE",
                                      got=text, order=src.order, override=text))
            continue
        data: dict[str, Any] = {}
        node = data
        parts = key.split(".")
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = value
        layer(src, data)

    bad = set().union(*(v.bad for v in validators)) if validators else set()
    issues.extend(cross_field_issues(tree, setter, bad))
    if issues:
        raise ConfigError(issues)
    return _build(Config, tree, base)

def load_config_text(text: str, *, source: str = "<text>",
                     overrides: Sequence[str] = (), recorded: bool = False) -> Config:
    """The built-in defaults layered with settings given as TOML text, then ``overrides``.

    For settings embedded in another file (a replay stores its whole resolved config this
    way, and its mid-game changes as overrides; it passes ``recorded=True``, see
    ``load_config``); the same checks and limits as ``load_config`` apply, and errors name
    ``source``.

    Raises:
        ConfigError: listing every problem (positions are lines of ``text``).
    """
    return load_config(TextFile(source, text.encode("utf-8")), overrides=overrides,
                       recorded=recorded)


def load_preset(name: str, *, overrides: Sequence[str] = ()) -> Config:
    """The bundled preset ``name`` layered with ``overrides``, validated.

    Unlike ``load_config(name)``, a file of that name in the working folder does not win: this
    always reads the copy that ships in the package.

    Raises:
        KeyError: if no preset has that name.
        ConfigError: listing every problem (the preset with these overrides is invalid).
    """
    return load_config(TextFile(name, preset_bytes(name)), overrides=overrides)
