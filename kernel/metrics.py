"""Prometheus metrics at `GET /metrics`: requests by route template and status, the database pool, the
task queue, WebSocket connections, scheduled job outcomes and cache hits and misses.

Requests are counted on the hot path, so they are not counted through `prometheus_client`'s metric
objects (a lock and a label lookup per call): `RequestMetrics.observe` adds to plain per-route series
on the event loop's thread, and a collector turns them into a histogram and a counter when scraped.
Cache look-ups, from any thread, are counted the same way (`CacheCounts`); plugins count theirs through
`atrium.sdk.metrics.count_cache`.

Metrics are per process. With `atrium serve --workers N` each worker answers for itself; a node that
must be counted completely runs one worker per process and port (scale out with more of them).
"""

from __future__ import annotations

import hmac
import ipaddress
import threading
import time
from bisect import bisect_left
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    GC_COLLECTOR,
    PLATFORM_COLLECTOR,
    PROCESS_COLLECTOR,
    CollectorRegistry,
    Counter,
    generate_latest,
)
from prometheus_client.metrics_core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    Metric,
)
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Mount

from atrium.sdk import metrics as sdk_metrics

if TYPE_CHECKING:
    from atrium.kernel.runtime import Kernel

#: upper bounds (seconds) of the request latency histogram
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
#: the route label of a request no route matched
UNMATCHED = "(unmatched)"

JOB_OUTCOMES = Counter(
    "atrium_scheduled_job_runs",
    "Scheduled job runs in this process, by job and outcome",
    ["job", "outcome"],
    registry=None,
)


def record_job_outcome(job: str, outcome: str) -> None:
    """Count one run of a scheduled job: `outcome` is a short word such as "ok", "failed" or "skipped"
    (another node held the lease). Keep both to a small fixed set: every pair is a series."""
    JOB_OUTCOMES.labels(job=job, outcome=outcome).inc()


class CacheCounts:
    """Look-ups by cache name, as hits and misses. Caches are read on the hot path from any thread, so a
    count takes no lock: each thread adds to a table of its own (no count is lost), a scrape sums them, and
    the tables of threads that ended are folded into one."""

    def __init__(self) -> None:
        self._mine = threading.local()
        self._guard = threading.Lock()
        #: each counting thread and its table: cache name -> [hits, misses]
        self._live: list[tuple[threading.Thread, dict[str, list[int]]]] = []
        self._retired: dict[str, list[int]] = {}

    def count(self, cache: str, hit: bool) -> None:
        table: dict[str, list[int]] | None = getattr(self._mine, "table", None)
        if table is None:
            table = self._new_table()
        slots = table.get(cache)
        if slots is None:
            slots = table[cache] = [0, 0]
        slots[0 if hit else 1] += 1

    def _new_table(self) -> dict[str, list[int]]:
        table: dict[str, list[int]] = {}
        self._mine.table = table
        with self._guard:
            self._retire_ended()
            self._live.append((threading.current_thread(), table))
        return table

    def _retire_ended(self) -> None:
        """Fold the tables of threads that ended (they count no more) into one; under the guard."""
        live = []
        for thread, table in self._live:
            if thread.is_alive():
                live.append((thread, table))
            else:
                _add_counts(self._retired, table)
        self._live = live

    def totals(self) -> dict[str, list[int]]:
        """[hits, misses] by cache name, so far."""
        with self._guard:
            self._retire_ended()
            tables = [self._retired, *(table for _thread, table in self._live)]
            found: dict[str, list[int]] = {}
            for table in tables:
                _add_counts(found, table)
        return found

    def collect(self) -> Iterator[Metric]:
        hits = CounterMetricFamily(
            "atrium_cache_hits", "Cache look-ups in this process that found their entry", labels=["cache"]
        )
        misses = CounterMetricFamily(
            "atrium_cache_misses", "Cache look-ups in this process that missed", labels=["cache"]
        )
        for cache, (hit, missed) in sorted(self.totals().items()):
            hits.add_metric([cache], hit)
            misses.add_metric([cache], missed)
        yield hits
        yield misses


def _add_counts(into: dict[str, list[int]], table: dict[str, list[int]]) -> None:
    for cache, (hits, misses) in list(table.items()):
        slots = into.setdefault(cache, [0, 0])
        slots[0] += hits
        slots[1] += misses


CACHE_COUNTS = CacheCounts()


def count_cache(name: str, hit: bool) -> None:
    """Count one look-up of the cache called `name` (a short fixed word such as "local.session": every name
    is a series); its hit rate is hits / (hits + misses)."""
    CACHE_COUNTS.count(name, hit)


# plugins count their caches through the SDK (`atrium.sdk.metrics.count_cache`) into the same series
sdk_metrics.install_cache_counter(count_cache)


class Series:
    """The latency counts of one (route, status) pair; `counts[i]` holds the requests that fell in
    bucket i (not cumulative), the last slot those over the largest bound."""

    __slots__ = ("counts", "seconds")

    def __init__(self) -> None:
        self.counts = [0] * (len(LATENCY_BUCKETS) + 1)
        self.seconds = 0.0


def route_template(route: Any) -> str:
    """The route's path as declared (`/api/x/{id}`), never the requested URL: the label stays bounded."""
    if route is None:
        return UNMATCHED
    if isinstance(route, Mount):
        return f"{route.path}/{{path}}"
    return str(getattr(route, "path", UNMATCHED))


class RequestMetrics:
    """Request counts and latencies by route template and status, kept by `ContextMiddleware`.

    Only the event loop's thread writes (ASGI middleware runs there), so no lock is taken; a scrape
    reads a snapshot that is at most one request behind."""

    def __init__(self) -> None:
        #: id(route) -> (route, its template, series by status); the route is kept so its id stays its own
        self.routes: dict[int, tuple[Any, str, dict[int, Series]]] = {}

    def observe(self, route: Any, status: int, start: float) -> None:
        seconds = time.perf_counter() - start
        entry = self.routes.get(id(route))
        if entry is None:
            entry = self.routes[id(route)] = (route, route_template(route), {})
        series = entry[2].get(status)
        if series is None:
            series = entry[2][status] = Series()
        series.counts[bisect_left(LATENCY_BUCKETS, seconds)] += 1
        series.seconds += seconds

    def collect(self) -> Iterator[Metric]:
        latency = HistogramMetricFamily(
            "atrium_http_request_duration_seconds",
            "HTTP request latency by route template and status",
            labels=["route", "status"],
        )
        requests = CounterMetricFamily(
            "atrium_http_requests", "HTTP requests by route template and status", labels=["route", "status"]
        )
        bounds = [*(repr(b) for b in LATENCY_BUCKETS), "+Inf"]
        for _route, template, by_status in list(self.routes.values()):
            for status, series in list(by_status.items()):
                labels = [template, str(status)]
                total, buckets = 0, []
                for bound, count in zip(bounds, list(series.counts), strict=True):
                    total += count
                    buckets.append((bound, float(total)))
                latency.add_metric(labels, buckets, series.seconds)
                requests.add_metric(labels, float(total))
        yield requests
        yield latency


class PlatformGauges:
    """Gauges read when scraped: the database pool, the task queue (with Redis) and WebSocket
    connections. The connection count belongs to the event loop, so the endpoint samples it there
    (`sample_on_loop`) before the rest is read in a worker thread."""

    def __init__(self, kernel: Kernel) -> None:
        self.kernel = kernel
        self.websockets = 0

    def sample_on_loop(self) -> None:
        self.websockets = self.kernel.ws.connection_count()

    def collect(self) -> Iterator[Metric]:
        yield GaugeMetricFamily(
            "atrium_websocket_connections",
            "Open WebSocket connections in this process",
            value=self.websockets,
        )
        pool = self.kernel.engine.pool
        for name, method, doc in (
            ("atrium_db_pool_checked_out", "checkedout", "Database connections in use"),
            ("atrium_db_pool_size", "size", "Database pool size (connections kept open)"),
            ("atrium_db_pool_overflow", "overflow", "Database connections open beyond the pool size"),
        ):
            read: Callable[[], int] | None = getattr(pool, method, None)
            if read is not None:
                yield GaugeMetricFamily(name, doc, value=read())
        yield from self._task_queue()

    def _task_queue(self) -> Iterator[Metric]:
        from atrium.kernel.services.tasks import QueueTaskRunner

        tasks = self.kernel.tasks
        if not isinstance(tasks, QueueTaskRunner):
            return
        queue = tasks.queue
        try:  # counted without RQ's registry clean-up, which would fail jobs whose lease lapsed
            waiting = queue.count
            running = queue.started_job_registry.get_job_count(cleanup=False)
            failed = queue.failed_job_registry.get_job_count(cleanup=False)
        except Exception:  # Redis unreachable: /readyz says so; the scrape still answers
            return
        yield GaugeMetricFamily(
            "atrium_task_queue_depth", "Background tasks waiting in the queue", value=waiting
        )
        yield GaugeMetricFamily("atrium_task_running", "Background tasks running (every node)", value=running)
        yield GaugeMetricFamily(
            "atrium_task_failed", "Failed background tasks kept in the failed registry", value=failed
        )


def parse_networks(text: str) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    """`ATRIUM_METRICS_ALLOW`: comma-separated CIDRs (a bare address is a network of one)."""
    try:
        return tuple(
            ipaddress.ip_network(part.strip(), strict=False) for part in text.split(",") if part.strip()
        )
    except ValueError as exc:
        raise SystemExit(f"ATRIUM_METRICS_ALLOW: {exc}") from exc


class MetricsAccess:
    """Who may read `/metrics`: a peer in an allowed network, or a caller with the bearer token.

    The peer is the connection's address as the server reports it (uvicorn rewrites it from
    X-Forwarded-For only for proxies it trusts); request headers are not believed here."""

    def __init__(self, allow: str, token: str) -> None:
        self.networks = parse_networks(allow)
        self.token = token.encode()

    def allows(self, request: Request) -> bool:
        if self.token:
            scheme, _, given = request.headers.get("authorization", "").partition(" ")
            if scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode(), self.token):
                return True
        client = request.client
        try:
            address = ipaddress.ip_address(client.host if client else "")
        except ValueError:
            return False
        if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
            address = address.ipv4_mapped
        return any(address in network for network in self.networks)


def metrics_registry(kernel: Kernel, requests: RequestMetrics) -> tuple[CollectorRegistry, PlatformGauges]:
    """One registry per app: its requests and platform, and the process-wide collectors."""
    registry = CollectorRegistry(auto_describe=False)
    gauges = PlatformGauges(kernel)
    process_wide = (JOB_OUTCOMES, CACHE_COUNTS, PROCESS_COLLECTOR, PLATFORM_COLLECTOR, GC_COLLECTOR)
    for collector in (requests, gauges, *process_wide):
        registry.register(collector)
    return registry, gauges


def make_metrics_endpoint(kernel: Kernel, requests: RequestMetrics) -> Callable[[Request], Any]:
    settings = kernel.settings
    access = MetricsAccess(settings.metrics_allow, settings.metrics_token)
    registry, gauges = metrics_registry(kernel, requests)

    async def metrics(request: Request) -> Response:
        if not access.allows(request):
            return PlainTextResponse("forbidden\n", status_code=403)
        gauges.sample_on_loop()
        body = await run_in_threadpool(generate_latest, registry)
        return Response(body, media_type=CONTENT_TYPE_LATEST)

    return metrics
