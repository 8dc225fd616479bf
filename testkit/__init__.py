"""Helpers shared by the tests, the benchmarks and the live demo: real processes on loopback."""
