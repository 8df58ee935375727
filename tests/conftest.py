"""Test-wide setup. Runs before any test module, so arcade (if imported) starts headless."""

import os

# arcade reads these once, at import: set them before anything imports it.
os.environ.setdefault("ARCADE_HEADLESS", "1")
os.environ.setdefault("ARCADE_SOUND_BACKENDS", "silent")
