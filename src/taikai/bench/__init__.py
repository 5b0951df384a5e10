"""Benchmarks (`make bench`): each module here with a ``run(args) -> None`` prints its own table."""
