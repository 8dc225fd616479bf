"""The line's (starter's) tests. Their shared fixtures (engine, Postgres, Cloud stand-in,
`backend`) are the plugin `testkit.fixtures`, which the library's tests (src/tests) load too."""

pytest_plugins = ["testkit.fixtures"]
