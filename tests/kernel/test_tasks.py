"""Background tasks: in-process threads on the embedded defaults, an RQ queue in Redis when configured."""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from rq.job import Job

from atrium.kernel.services.cache import RedisCache
from atrium.kernel.services.tasks import MAX_REQUEUES, QueueTaskRunner, ThreadTaskRunner, requeue_abandoned

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


@pytest.fixture
def queue_runner(kernel: Any) -> Any:
    """A queue of its own on the test Redis, without worker threads until a test starts them."""
    runner = QueueTaskRunner(
        kernel,
        REDIS,
        f"atrium-test-lease-{secrets.token_hex(4)}:tasks",
        threads=0,
        lease_seconds=3,
        grace_seconds=0.5,
    )
    yield runner
    runner.shutdown()
    for key in runner.connection.keys(f"rq:*{runner.queue.name}*"):
        runner.connection.delete(key)


def taken_by_a_worker_that_dies(runner: Any, job_id: str) -> Job:
    """What a worker does before running a job (takes it, marks it started under a lease), then nothing:
    the process is gone (kill -9)."""
    from atrium.kernel.services.tasks import _ThreadWorker

    worker = runner._worker(_ThreadWorker)
    worker.register_birth()
    job = Job.fetch(job_id, connection=runner.connection)
    runner.queue.remove(job)
    worker.prepare_execution(job)
    worker.prepare_job_execution(job)
    assert job.get_status(refresh=True) == "started"
    return job


@needs_redis
def test_a_job_whose_worker_died_is_requeued_once_its_lease_lapses(queue_runner: Any) -> None:
    key = f"task:{secrets.token_hex(6)}"
    job_id = queue_runner.submit(task_jobs.remember, key, "after the crash")
    job = taken_by_a_worker_that_dies(queue_runner, job_id)
    assert requeue_abandoned(queue_runner.queue) == []  # the lease still holds: it may be running
    time.sleep(queue_runner.lease_seconds + 1.5)
    assert requeue_abandoned(queue_runner.queue) == [job_id]
    assert job.get_status(refresh=True) == "queued" and job_id in queue_runner.queue.job_ids
    queue_runner.threads = 1
    queue_runner.start()
    got = wait_for(lambda: RedisCache(REDIS, queue_runner.services.settings.redis_prefix).get(key))
    assert got["value"] == "after the crash"


@needs_redis
def test_a_job_that_keeps_killing_its_workers_ends_failed(queue_runner: Any) -> None:
    job_id = queue_runner.submit(task_jobs.remember, f"task:{secrets.token_hex(6)}", "never")
    for _ in range(MAX_REQUEUES):
        taken_by_a_worker_that_dies(queue_runner, job_id)
        time.sleep(queue_runner.lease_seconds + 1.5)
        assert requeue_abandoned(queue_runner.queue) == [job_id]
    job = taken_by_a_worker_that_dies(queue_runner, job_id)
    time.sleep(queue_runner.lease_seconds + 1.5)
    assert requeue_abandoned(queue_runner.queue) == []
    queue_runner.queue.started_job_registry.cleanup()  # what every worker's maintenance does
    assert job.get_status(refresh=True) == "failed"
    assert job_id in queue_runner.queue.failed_job_registry.get_job_ids()


@needs_redis
def test_a_running_job_holds_its_lease_while_it_runs(queue_runner: Any, kernel: Any) -> None:
    key = f"task:{secrets.token_hex(6)}"
    job_id = queue_runner.submit(task_jobs.linger, key, queue_runner.lease_seconds * 3)
    queue_runner.threads = 1
    queue_runner.start()
    wait_for(lambda: kernel.cache.get(key) == "running" or None)
    time.sleep(queue_runner.lease_seconds * 2)
    assert requeue_abandoned(queue_runner.queue) == []  # renewed: never taken for abandoned
    wait_for(lambda: kernel.cache.get(key) == "finished" or None)
    assert Job.fetch(job_id, connection=queue_runner.connection).get_status(refresh=True) == "finished"


@needs_redis
def test_a_stopping_worker_hands_its_running_job_back_after_the_grace_period(
    queue_runner: Any, kernel: Any
) -> None:
    key = f"task:{secrets.token_hex(6)}"
    job_id = queue_runner.submit(task_jobs.linger, key, 60)
    queue_runner.threads = 1
    queue_runner.start()
    wait_for(lambda: kernel.cache.get(key) == "running" or None)
    t = time.monotonic()
    queue_runner.shutdown()
    assert time.monotonic() - t < queue_runner.grace_seconds + 5
    assert kernel.cache.get(key) == "interrupted"
    job = Job.fetch(job_id, connection=queue_runner.connection)
    assert job.get_status(refresh=True) == "queued" and job_id in queue_runner.queue.job_ids


@needs_redis
def test_a_stopping_worker_lets_a_short_job_finish(queue_runner: Any, kernel: Any) -> None:
    key = f"task:{secrets.token_hex(6)}"
    queue_runner.grace_seconds = 10
    job_id = queue_runner.submit(task_jobs.linger, key, 1.0)
    queue_runner.threads = 1
    queue_runner.start()
    wait_for(lambda: kernel.cache.get(key) == "running" or None)
    queue_runner.shutdown()
    assert kernel.cache.get(key) == "finished"
    assert Job.fetch(job_id, connection=queue_runner.connection).get_status(refresh=True) == "finished"


@needs_redis
def test_the_worker_command_hands_back_its_job_on_sigterm(tmp_path: Path) -> None:
    """`atrium worker` told to stop (SIGTERM) while a job runs: after the grace period the job goes back to
    the queue, and the process ends."""
    prefix = f"atrium-test-term-{secrets.token_hex(4)}:"
    submitter = QueueTaskRunner(None, REDIS, prefix + "tasks", threads=0)
    key = f"task:{secrets.token_hex(6)}"
    job_id = submitter.submit(task_jobs.linger, key, 120)
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "ATRIUM_REDIS_URL": REDIS,
        "ATRIUM_REDIS_PREFIX": prefix,
        "ATRIUM_VAR_DIR": str(tmp_path),
        "ATRIUM_TASK_GRACE_SECONDS": "1",
    }
    atrium = Path(os.sys.executable).parent / "atrium"
    proc = subprocess.Popen(
        [str(atrium), "worker"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        cache = RedisCache(REDIS, prefix)
        wait_for(lambda: cache.get(key) == "running" or None, 120)
        t = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        proc.wait(30)
        assert time.monotonic() - t < 15
        assert cache.get(key) == "interrupted"
        job = Job.fetch(job_id, connection=submitter.connection)
        assert job.get_status(refresh=True) == "queued" and job_id in submitter.queue.job_ids
    finally:
        if proc.poll() is None:
            proc.kill()
        for k in submitter.connection.keys(f"*{prefix}*"):
            submitter.connection.delete(k)
