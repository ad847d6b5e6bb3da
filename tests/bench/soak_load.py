"""Mixed signed-in traffic for the soak, with locust as a library. Runs in a process of its own (locust's
gevent patches the interpreter): `python -m tests.bench.soak_load PLAN.json`, where the plan gives the
address, the duration, the number of users and the people they act as (headers, a report view each may
see); prints one JSON line with
the totals and the latency percentiles (ms)."""

from __future__ import annotations

import itertools
import json
import sys
from typing import Any

import gevent
from locust import HttpUser, between, task
from locust.env import Environment

PLAN: dict[str, Any] = json.loads(open(sys.argv[1]).read()) if __name__ == "__main__" else {}  # noqa: SIM115
INBOX = "/api/message/iotBaseMessageLogController"


class SignedIn(HttpUser):
    """One signed-in person: mostly reads (profile, menus, unread count, inbox, report data), some writes."""

    wait_time = between(0.05, 0.3)
    people = itertools.cycle(PLAN.get("people", [{}]))

    def on_start(self) -> None:
        person = next(self.people)
        self.auth, self.view = person["headers"], person["view"]

    def call(self, name: str, method: str, path: str, body: Any = None) -> None:
        with self.client.request(
            method, path, json=body, headers=self.auth, name=name, catch_response=True
        ) as resp:
            if resp.status_code != 200:
                resp.failure(f"HTTP {resp.status_code}")
                return
            try:
                code = resp.json().get("code")
            except ValueError:
                resp.failure("not JSON")
                return
            if code != 800:
                resp.failure(f"code {code}")

    @task(5)
    def profile(self) -> None:
        self.call("profile", "GET", "/api/base/base-user/get-login-user")

    @task(4)
    def menus(self) -> None:
        self.call("menus", "GET", "/api/base/base-rolemenu/find-user-menus?systemCode=iotAutho")

    @task(4)
    def unread(self) -> None:
        self.call("unread", "POST", f"{INBOX}/unread-message-total", {"params": {}})

    @task(3)
    def inbox(self) -> None:
        self.call("inbox", "POST", f"{INBOX}/message-find", {"pageIndex": 1, "pageRows": 10})

    @task(2)
    def report(self) -> None:
        if self.view:
            path = f"/api/dyreport/chart/view/getData/{self.view['id']}/{self.view['panelId']}"
            self.call("report data", "POST", path, {})

    @task(1)
    def exports(self) -> None:
        body = {"pageNum": 1, "pageSize": 10}
        self.call("export records", "POST", "/api/dataexport/data-export/v2/list", body)

    @task(1)
    def read_all(self) -> None:
        self.call("read all", "POST", f"{INBOX}/read-all", {"systemCodes": []})


def main() -> None:
    env = Environment(user_classes=[SignedIn], host=PLAN["url"])
    runner = env.create_local_runner()
    runner.start(PLAN["users"], spawn_rate=PLAN["users"])
    gevent.spawn_later(PLAN["seconds"], runner.quit)
    runner.greenlet.join()
    total = env.stats.total
    out = {
        "requests": total.num_requests,
        "failures": total.num_failures,
        "rps": total.num_requests / max(PLAN["seconds"], 1),
        "p50": total.get_response_time_percentile(0.5),
        "p95": total.get_response_time_percentile(0.95),
        "p99": total.get_response_time_percentile(0.99),
        "errors": {f"{e.name}: {e.error}": e.occurrences for e in env.stats.errors.values()},
    }
    print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
