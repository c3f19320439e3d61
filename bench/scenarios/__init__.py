"""One module per scenario; ORDER is the order `bench/run all` uses."""

ORDER = ["interactive", "animation", "roundtrip", "throughput", "interval",
        "scale", "stressors", "hogs", "equalize", "startup", "storm",
        "remote", "tail"]
