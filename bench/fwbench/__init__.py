"""fairway's benchmark harness (bench/run)."""
