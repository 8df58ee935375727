"""Key names a binding may use: exactly the key constants of ``arcade.key``.

Hard-coded so that the config package never imports arcade (a test checks every name still
exists in ``arcade.key``). ``MOD_*`` modifier masks and ``MOTION_*`` text-motion codes are
not keys and are left out.
"""

from __future__ import annotations

__all__ = ["KEY_ALIASES", "KEY_NAMES", "canonical_key"]

KEY_NAMES: tuple[str, ...] = (
    "SPACE", "EXCLAMATION", "DOUBLEQUOTE", "HASH", "POUND", "DOLLAR", "PERCENT", "AMPERSAND",
    "APOSTROPHE", "PARENLEFT", "PARENRIGHT", "ASTERISK", "PLUS", "COMMA", "MINUS", "PERIOD",
    "SLASH", "KEY_0", "KEY_1", "KEY_2", "KEY_3", "KEY_4", "KEY_5", "KEY_6", "KEY_7", "KEY_8",
    "KEY_9", "COLON", "SEMICOLON", "LESS", "EQUAL", "GREATER", "QUESTION", "AT", "BRACKETLEFT",
    "BACKSLASH", "BRACKETRIGHT", "ASCIICIRCUM", "UNDERSCORE", "GRAVE", "QUOTELEFT", "A", "B",
    "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M", "N", "O", "P", "Q", "R", "S", "T",
    "U", "V", "W", "X", "Y", "Z", "BRACELEFT", "BAR", "BRACERIGHT", "ASCIITILDE", "BACKSPACE",
    "TAB", "LINEFEED", "CLEAR", "ENTER", "RETURN", "PAUSE", "SCROLLLOCK", "SYSREQ", "ESCAPE",
    "HOME", "LEFT", "UP", "RIGHT", "DOWN", "PAGEUP", "PAGEDOWN", "END", "BEGIN", "SELECT",
    "PRINT", "EXECUTE", "INSERT", "UNDO", "REDO", "MENU", "FIND", "CANCEL", "HELP", "BREAK",
    "MODESWITCH", "SCRIPTSWITCH", "NUMLOCK", "NUM_SPACE", "NUM_TAB", "NUM_ENTER", "NUM_F1",
    "NUM_F2", "NUM_F3", "NUM_F4", "NUM_HOME", "NUM_LEFT", "NUM_UP", "NUM_RIGHT", "NUM_DOWN",
    "NUM_PAGE_UP", "NUM_PRIOR", "NUM_NEXT", "NUM_PAGE_DOWN", "NUM_END", "NUM_BEGIN",
    "NUM_INSERT", "NUM_DELETE", "NUM_MULTIPLY", "NUM_ADD", "NUM_SEPARATOR", "NUM_SUBTRACT",
    "NUM_DECIMAL", "NUM_DIVIDE", "NUM_0", "NUM_1", "NUM_2", "NUM_3", "NUM_4", "NUM_5", "NUM_6",
    "NUM_7", "NUM_8", "NUM_9", "NUM_EQUAL", "F1", "F2", "F3", "F4", "F5", "F6", "F7", "F8",
    "F9", "F10", "F11", "F12", "F13", "F14", "F15", "F16", "F17", "F18", "F19", "LOPTION",
    "F20", "ROPTION", "F21", "F22", "F23", "F24", "LSHIFT", "RSHIFT", "LCTRL", "RCTRL",
    "CAPSLOCK", "LMETA", "RMETA", "LALT", "RALT", "LWINDOWS", "RWINDOWS", "LCOMMAND",
    "RCOMMAND", "DELETE",
)
"""Every key constant of ``arcade.key`` 3.3.3, in key-code order."""

KEY_ALIASES: dict[str, str] = {
    "RETURN": "ENTER",
    "POUND": "HASH",
    "QUOTELEFT": "GRAVE",
    "LOPTION": "F19",
    "ROPTION": "F20",
    "SCRIPTSWITCH": "MODESWITCH",
    "NUM_PRIOR": "NUM_PAGE_UP",
    "NUM_NEXT": "NUM_PAGE_DOWN",
}
"""Names that arcade gives the same key code, mapped to one canonical name.

Binding ``ENTER`` to one action and ``RETURN`` to another is the same key twice.
"""


def canonical_key(name: str) -> str:
    """The canonical name of a key, so aliases of one physical key compare equal."""
    return KEY_ALIASES.get(name, name)
