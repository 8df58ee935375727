"""Benchmarks behind the README's numbers (run as modules, e.g. ``python -m benchmarks.collision``).

Not unit tests: nothing here is collected by pytest, and no test asserts a time.
"""
