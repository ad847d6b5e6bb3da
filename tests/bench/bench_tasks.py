"""Background tasks through the Redis queue (RQ, two worker threads) beside the in-process thread pool.

Both run the same small task (one Redis increment) 400 times; the figure is tasks finished per second,
from the first submit to the last task done. What the queue adds is the price of tasks that outlive
their process and run on any worker.
"""

from __future__ import annotations

import os
import secrets
import time
from typing import Any

import redis

from atrium.kernel.services.tasks import QueueTaskRunner, ThreadTaskRunner
from tests.bench.report import report

REDIS_URL = os.environ.get("ATRIUM_BENCH_REDIS", "redis://127.0.0.1:6379/0")
TASKS = 400
_client = redis.Redis.from_url(REDIS_URL)


def tick(key: str) -> None:
    _client.incr(key)


def throughput(runner: Any) -> float:
    from tests.bench import bench_tasks  # the task by its import name: a worker cannot import __main__

    key = f"atrium-bench-tasks:{secrets.token_hex(4)}"
    start = time.perf_counter()
    for _ in range(TASKS):
        runner.submit(bench_tasks.tick, key)
    while int(_client.get(key) or 0) < TASKS:
        time.sleep(0.002)
    elapsed = time.perf_counter() - start
    _client.delete(key)
    return TASKS / elapsed


def main() -> None:
    threads = ThreadTaskRunner(None, workers=4)
    queue = QueueTaskRunner(None, REDIS_URL, f"atrium-bench-{secrets.token_hex(4)}:tasks", threads=2)
    queue.start()
    try:
        throughput(threads), throughput(queue)  # warm up both
        pool_rate = max(throughput(threads) for _ in range(3))
        queue_rate = max(throughput(queue) for _ in range(3))
    finally:
        queue.shutdown()
        threads.shutdown()
    report(
        "tasks through the RQ queue",
        queue_rate,
        pool_rate,
        "tasks/s",
        baseline_name="in-process thread pool",
        higher_is_better=True,
    )


if __name__ == "__main__":
    main()
