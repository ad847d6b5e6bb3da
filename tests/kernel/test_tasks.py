"""Background tasks: in-process threads on the embedded defaults, an RQ queue in Redis when configured."""

from __future__ import annotations

import os
import secrets
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from rq.job import Job

from atrium.kernel.services.cache import RedisCache
from atrium.kernel.services.tasks import QueueTaskRunner, ThreadTaskRunner

from . import task_jobs

ROOT = Path(__file__).resolve().parents[2]
REDIS = os.environ.get("ATRIUM_TEST_REDIS_URL", "")
needs_redis = pytest.mark.skipif(not REDIS, reason="the task queue lives in Redis: set ATRIUM_TEST_REDIS_URL")


def wait_for(read: Any, within: float = 20.0) -> Any:
    deadline = time.monotonic() + within
    while (got := read()) is None:
        assert time.monotonic() < deadline, "the task did not run"
        time.sleep(0.05)
    return got


def test_a_task_runs_in_the_background_with_the_platform_bound(kernel: Any) -> None:
    key = f"task:{secrets.token_hex(6)}"
    kernel.tasks.submit(task_jobs.remember, key, "done")
    got = wait_for(lambda: kernel.cache.get(key))
    assert got == {"value": "done", "pid": os.getpid()}


def test_the_runner_follows_the_configuration(kernel: Any) -> None:
    expected = QueueTaskRunner if kernel.settings.redis_url else ThreadTaskRunner
    assert isinstance(kernel.tasks, expected)


@pytest.mark.parametrize("bad", [lambda: None, task_jobs.remember.__get__(object())])
def test_what_another_process_cannot_import_is_refused(kernel: Any, bad: Any) -> None:
    def nested() -> None:
        return None

    for func in (bad, nested):
        with pytest.raises(TypeError, match="module-level function"):
            kernel.tasks.submit(func)


@needs_redis
def test_a_queued_task_is_a_job_in_redis_and_a_failure_is_kept(kernel: Any) -> None:
    key = f"task:{secrets.token_hex(6)}"
    job_id = kernel.tasks.submit(task_jobs.remember, key, "queued")
    wait_for(lambda: kernel.cache.get(key))
    job = Job.fetch(job_id, connection=kernel.tasks.connection)
    assert job.func_name == "tests.kernel.task_jobs.remember"
    wait_for(lambda: True if job.get_status(refresh=True) == "finished" else None)

    failing = kernel.tasks.submit(task_jobs.fail, "the sheet was locked")
    job = Job.fetch(failing, connection=kernel.tasks.connection)
    wait_for(lambda: True if job.get_status(refresh=True) == "failed" else None)
    assert "the sheet was locked" in (job.latest_result().exc_string or "")
    assert failing in kernel.tasks.queue.failed_job_registry.get_job_ids()


@needs_redis
def test_tasks_wait_in_redis_until_a_worker_process_takes_them(kernel: Any) -> None:
    """Submitted from a process without worker threads, the job outlives it in Redis; `atrium worker`,
    a separate process on the same database and Redis, runs it."""
    settings = kernel.settings
    prefix = f"atrium-test-worker-{secrets.token_hex(4)}:"
    runner = QueueTaskRunner(kernel, REDIS, prefix + "tasks", threads=0)
    key = f"task:{secrets.token_hex(6)}"
    runner.submit(task_jobs.remember, key, "from the worker")
    assert runner.queue.count == 1

    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "ATRIUM_REDIS_URL": REDIS,
        "ATRIUM_REDIS_PREFIX": prefix,
        "ATRIUM_DATABASE_URL": settings.database_url,
        "ATRIUM_VAR_DIR": str(settings.var_dir),
        "ATRIUM_SECRET_KEY": settings.secret_key,
    }
    atrium = Path(os.sys.executable).parent / "atrium"
    done = subprocess.run([str(atrium), "worker", "--burst"], env=env, capture_output=True, timeout=180)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    got = RedisCache(REDIS, prefix).get(key)
    assert got is not None and got["value"] == "from the worker"
    assert got["pid"] != os.getpid()
    assert runner.queue.count == 0


def test_worker_needs_redis(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ATRIUM_")}
    env["ATRIUM_VAR_DIR"] = str(tmp_path)
    atrium = Path(os.sys.executable).parent / "atrium"
    done = subprocess.run([str(atrium), "worker", "--burst"], env=env, capture_output=True, timeout=60)
    assert done.returncode != 0
    assert "ATRIUM_REDIS_URL" in done.stderr.decode()
