"""What the line holds about a caller, and forgetting it, across every store.

    python -m contextdb_livekit.caller_data export CUSTOMER_ID   # JSON of everything held
    python -m contextdb_livekit.caller_data erase CUSTOMER_ID    # forget the caller

`stores` composes one `stores.caller_data.CallerDataStore` per store of the configured
backends (the same choice `worker.host_state` and `backends.factory` make); `export`, `erase`
and `retention` run over that list. The in-call "forget my details" is a gated action of the
line (`caller_data.forget`) that runs the same erasure.
"""
