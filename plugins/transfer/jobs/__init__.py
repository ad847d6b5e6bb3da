"""Background work: task ownership and heartbeats, start-up recovery, scheduled cleanup, job counts."""
