"""Reading a file the user named: regular files only, refused at once otherwise, bounded."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from asteroids.userfile import FileTooLarge, NotRegularFile, display_name, read_user_file

posix = pytest.mark.skipif(sys.platform == "win32", reason="named pipes and /dev/zero")


def test_a_regular_file_is_read_up_to_its_limit_and_refused_one_byte_past(tmp_path: Path
                                                                           ) -> None:
    path = tmp_path / "f"
    path.write_bytes(b"x" * 100)
    assert read_user_file(path, 100) == b"x" * 100
    with pytest.raises(FileTooLarge) as info:
        read_user_file(path, 99)
    assert info.value.size == 100 and "too large (100 bytes; the limit is 99)" in str(info.value)


@posix
def test_a_named_pipe_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "p")
    with pytest.raises(NotRegularFile, match="named pipe.*give '-'"):
        read_user_file(tmp_path / "p", 10)


@posix
def test_a_folder_and_a_device_are_refused(tmp_path: Path) -> None:
    with pytest.raises(NotRegularFile) as folder:
        read_user_file(tmp_path, 10)
    assert folder.value.strerror == "it is a folder, not a regular file"
    with pytest.raises(NotRegularFile) as device:
        read_user_file("/dev/zero", 10)
    assert device.value.strerror == "it is a device, not a regular file"


def test_a_missing_file_says_so(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        read_user_file(tmp_path / "nope", 10)


def test_a_dash_is_shown_as_standard_input() -> None:
    assert display_name("-") == "<stdin>" and display_name("a/-") == "a/-"
