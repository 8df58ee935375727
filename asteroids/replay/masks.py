"""The inputs of a replay, one 6-bit mask per tick, run-length encoded.

One byte per run of 1-3 ticks (top two bits = run - 1), or a byte with top bits 11 and an
LEB128 varint of run - 4: an idle minute is a few bytes. Decoding never allocates more than
the ticks the header states, so a hostile file cannot inflate past it.
"""

from __future__ import annotations

__all__ = ["decode_masks", "encode_masks"]


def encode_masks(masks: bytes) -> bytes:
    """Run-length encode 6-bit masks: one byte per run of 1-3 ticks (top two bits = run - 1),
    or a byte with top bits 11 followed by an LEB128 varint of run - 4."""
    out = bytearray()
    i, n = 0, len(masks)
    while i < n:
        mask = masks[i]
        j = i + 1
        while j < n and masks[j] == mask:
            j += 1
        run = j - i
        if run <= 3:
            out.append(mask | (run - 1) << 6)
        else:
            out.append(mask | 0xC0)
            rest = run - 4
            while True:
                byte = rest & 0x7F
                rest >>= 7
                if rest:
                    out.append(byte | 0x80)
                else:
                    out.append(byte)
                    break
        i = j
    return bytes(out)


def decode_masks(data: bytes, ticks: int) -> bytes:
    """The masks back from ``encode_masks``; ValueError if the data does not describe
    exactly ``ticks`` masks (never allocates more than ``ticks`` bytes)."""
    out = bytearray()
    i, n = 0, len(data)
    while i < n:
        byte = data[i]
        i += 1
        mask = byte & 0x3F
        top = byte >> 6
        if top < 3:
            run = top + 1
        else:
            rest = shift = 0
            while True:
                if i >= n:
                    raise ValueError("a run length is cut off")
                b = data[i]
                i += 1
                rest |= (b & 0x7F) << shift
                shift += 7
                if not b & 0x80:
                    break
                if shift > 35:
                    raise ValueError("a run length is too long")
            run = rest + 4
        if len(out) + run > ticks:
            raise ValueError(f"the inputs describe more than the {ticks} ticks in the header")
        out += bytes([mask]) * run
    if len(out) != ticks:
        raise ValueError(f"the inputs describe {len(out)} ticks, the header says {ticks}")
    return bytes(out)
