"""Operations: the platform's nodes, readiness, task queue, storage, scheduled jobs and background tasks."""
