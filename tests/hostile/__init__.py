"""The hostile-input suite: crafted files and arguments, tried as an attacker would.

Every case runs the real command line (``python -m asteroids ...``) in a subprocess under a
memory cap and a time limit (``harness.run_cli``) and must end in a documented exit code
with no traceback. One module per class of attack:

- ``test_numbers_and_nesting``: numbers too long to convert, values nested too deeply, in
  replay headers, a replay's embedded settings and changes, TOML files and ``--set``;
- ``test_special_files``: named pipes, folders and devices where a file is expected, and
  ``-`` (standard input) where the user asks for it;
- ``test_rule_ranges``: schema-valid settings the kernels or bots once refused (through
  ``record``, ``balance`` and ``verify``), and ``verify --jobs`` keeping each file apart;
- ``test_replay_mutation``: replays mutated structurally by hypothesis (header fields,
  settings, changes, inputs), re-sealed with a correct checksum.

A new class (the player's files, a work budget) is one more ``test_*.py`` module here using
``harness.run_cli`` and its caps, and one more row in the table of docs/maintainers/reliability.md
(``test_suite.py`` keeps the table and the modules in step).
"""
