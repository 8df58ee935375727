"""The bounds TOML is read with (settings files, ``--set``, replay headers): numbers and
nesting are refused at their limit plus one, with the place, before anything converts."""

from __future__ import annotations

import tomllib

import pytest

from asteroids.config import ConfigError, load_config, parse_override
from asteroids.config.bounded import MAX_DEPTH, MAX_NUMBER_CHARS, TomlLimitError, loads


@pytest.mark.parametrize("number", ["9" * MAX_NUMBER_CHARS, "0x" + "f" * (MAX_NUMBER_CHARS - 2),
                                    "-" + "9" * (MAX_NUMBER_CHARS - 1),
                                    "1." + "5" * (MAX_NUMBER_CHARS - 2)])
def test_a_number_of_the_limit_is_read_and_one_character_more_is_refused(number: str) -> None:
    assert loads(f"a = {number}")["a"] == tomllib.loads(f"a = {number}")["a"]
    with pytest.raises(TomlLimitError) as info:
        loads(f"\nb = 1\na = {number[:-1]}5{number[-1]}")
    assert (info.value.line, info.value.col) == (3, 5)
    assert f"with {MAX_NUMBER_CHARS + 1} characters" in info.value.reason


@pytest.mark.parametrize(("open_", "close"), [("[", "]"), ("{a = ", "}")])
def test_nesting_to_the_limit_is_read_and_one_level_more_is_refused(open_: str,
                                                                   close: str) -> None:
    def nested(depth: int) -> str:
        return "v = " + open_ * depth + ("1" if open_ != "[" else "") + close * depth

    assert loads(nested(MAX_DEPTH)) == tomllib.loads(nested(MAX_DEPTH))
    with pytest.raises(TomlLimitError, match=f"nested more than {MAX_DEPTH} deep") as info:
        loads(nested(MAX_DEPTH + 1))
    assert info.value.line == 1


@pytest.mark.parametrize("header", [False, True])
def test_dotted_keys_to_the_limit_are_read_and_one_part_more_is_refused(header: bool) -> None:
    def text(parts: int) -> str:
        key = ".".join(["k"] * parts)
        return f"[{key}]\nx = 1\n" if header else f"{key} = 1\n"

    loads(text(MAX_DEPTH))
    with pytest.raises(TomlLimitError, match="nested more than"):
        loads(text(MAX_DEPTH + 1))


def test_brackets_and_digits_inside_strings_and_comments_do_not_count() -> None:
    deep = "[" * 100
    digits = "9" * 5000
    text = (f'a = "{deep}{digits}"\nb = \'{deep}\'\nc = """\n{deep}\n{digits}"""\n'
            f"d = '''{deep}'''\n# {deep} {digits}\ne = \"\\\"{deep}\"\n")
    assert loads(text)["d"] == deep


def test_a_settings_file_and_a_set_report_the_bound_with_the_place(tmp_path) -> None:
    path = tmp_path / "big.toml"
    path.write_text("[ship]\nthrust_px_per_s2 = " + "1" * (MAX_NUMBER_CHARS + 1) + "\n")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert str(info.value.errors[0]) == (
        f"{path}:2:20: error[too-large]: a number is written with {MAX_NUMBER_CHARS + 1} "
        f"characters; numbers longer than {MAX_NUMBER_CHARS} characters are refused")
    # At the limit the number is read, and the setting's own range speaks.
    path.write_text("[ship]\nthrust_px_per_s2 = " + "1" * MAX_NUMBER_CHARS + "\n")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert info.value.errors[0].code == "range"
    with pytest.raises(ValueError, match="the key has more than 32 parts"):
        parse_override("a" + ".a" * MAX_DEPTH + "=1")
    assert parse_override("a" + ".a" * (MAX_DEPTH - 1) + "=1")[1] == 1
