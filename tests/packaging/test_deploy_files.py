"""The release files: the Dockerfile, compose.yaml with deploy/nginx.conf, and the Kubernetes manifests.

Each goes through its validator (hadolint, check-jsonschema with the vendored Compose specification,
kubernetes-validate in strict mode with the schemas it ships, `nginx -t` where nginx is installed), which
must pass without a finding, and a few structural assertions check what the validators cannot: a non-root
user, the health check, the services compose starts, the WebSocket upgrade, the proxy's retries and request
ids, and the probes.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
DOCKERFILE = ROOT / "Dockerfile"
COMPOSE = ROOT / "compose.yaml"
NGINX = ROOT / "deploy" / "nginx.conf"
COMPOSE_SCHEMA = ROOT / "deploy" / "schema" / "compose-spec.json"
K8S = ROOT / "deploy" / "k8s"


def tool(name: str) -> str:
    path = BIN / name
    if not path.exists():
        pytest.fail(f"{name} is not installed: pip install -e '.[dev]'")
    return str(path)


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, capture_output=True, text=True, timeout=120, cwd=ROOT)


def directives(conf: str) -> str:
    """An nginx config without its comments."""
    return re.sub(r"#[^\n]*", "", conf)


def block(conf: str, opening: str) -> str:
    """The body of the block `opening` starts (e.g. ``location / {``), up to its matching brace."""
    start = conf.index(opening) + len(opening)
    depth = 1
    for i in range(start, len(conf)):
        depth += {"{": 1, "}": -1}.get(conf[i], 0)
        if depth == 0:
            return conf[start:i]
    raise AssertionError(f"{opening!r} is not closed")


def manifests() -> list[Path]:
    return sorted(p for p in K8S.glob("*.yaml") if p.name != "kustomization.yaml")


def k8s_docs() -> dict[str, dict[str, Any]]:
    """Every manifest by `kind/name`."""
    docs = {}
    for path in manifests():
        for doc in yaml.safe_load_all(path.read_text()):
            if doc:
                docs[f"{doc['kind']}/{doc['metadata']['name']}"] = doc
    return docs


# -- the validators ----------------------------------------------------------------------------------


def test_hadolint_passes_the_dockerfile() -> None:
    result = run(tool("hadolint"), "--no-color", str(DOCKERFILE))
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == ""


def test_compose_file_follows_the_compose_specification() -> None:
    result = run(tool("check-jsonschema"), "--schemafile", str(COMPOSE_SCHEMA), str(COMPOSE))
    assert result.returncode == 0, result.stdout + result.stderr


def test_compose_validation_catches_a_mistake(tmp_path: Path) -> None:
    """The schema is strict enough to matter: a misspelt service key fails."""
    broken = tmp_path / "compose.yaml"
    broken.write_text(COMPOSE.read_text().replace("depends_on:", "depend_on:", 1))
    result = run(tool("check-jsonschema"), "--schemafile", str(COMPOSE_SCHEMA), str(broken))
    assert result.returncode != 0


def test_nginx_accepts_the_proxy_config(tmp_path: Path) -> None:
    """`nginx -t` on deploy/nginx.conf as the rolling-restart benchmark runs it: under a temporary prefix, the
    nodes on loopback ports (compose's host names resolve only in compose)."""
    nginx = shutil.which("nginx", path=os.pathsep.join([os.environ.get("PATH", ""), "/usr/sbin"]))
    if nginx is None:
        pytest.skip("nginx is not installed (apt-get install nginx)")
    from tests.bench.bench_rolling_restart import TEMP_PATHS, nginx_conf

    for name in TEMP_PATHS:
        (tmp_path / name).mkdir()
    conf = tmp_path / "nginx.conf"
    conf.write_text(nginx_conf(tmp_path, 8001, 8002, 8080))
    result = run(nginx, "-t", "-p", str(tmp_path), "-e", str(tmp_path / "error.log"), "-c", str(conf))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "syntax is ok" in result.stderr, result.stderr


def test_kubernetes_manifests_are_valid() -> None:
    assert len(manifests()) >= 8
    result = run(tool("kubernetes-validate"), "--strict", *map(str, manifests()))
    assert result.returncode == 0, result.stdout + result.stderr
    output = result.stdout + result.stderr
    assert "WARN" not in output and "ERROR" not in output, output
    assert output.count(" passed for resource ") == len(k8s_docs())


def test_kubernetes_validation_catches_a_mistake(tmp_path: Path) -> None:
    """Strict mode rejects a field Kubernetes does not know."""
    broken = tmp_path / "web.yaml"
    broken.write_text((K8S / "web-deployment.yaml").read_text().replace("readinessProbe:", "readynessProbe:"))
    result = run(tool("kubernetes-validate"), "--strict", str(broken))
    assert result.returncode != 0


# -- the Dockerfile ----------------------------------------------------------------------------------


def test_dockerfile_builds_the_web_once_and_runs_the_wheel_as_a_non_root_user() -> None:
    text = DOCKERFILE.read_text()
    stages = re.findall(r"^FROM (\S+)", text, re.MULTILINE)
    assert stages[0].startswith("node:20") and all(s.startswith("python:3.11-slim") for s in stages[1:])
    assert text.count("npm run build") == 1
    runtime = text.split("\nFROM ")[-1]  # the last stage: what the image runs
    users = re.findall(r"^USER (\S+)", runtime, re.MULTILINE)
    assert users and users[-1].split(":")[0] not in ("0", "root")
    assert "COPY kernel" not in runtime and ".whl" in runtime  # the wheel, not the sources
    health = re.search(r"^HEALTHCHECK .*?CMD (.*)$", runtime, re.MULTILINE | re.DOTALL)
    assert health and "/healthz" in health.group(1)
    assert re.search(r'^CMD \["atrium", "serve", "--host", "0\.0\.0\.0"', runtime, re.MULTILINE)


def test_dockerignore_keeps_built_and_installed_files_out() -> None:
    ignored = (ROOT / ".dockerignore").read_text().split()
    for pattern in ("**/node_modules", "**/dist", ".venv", "var", ".git"):
        assert pattern in ignored


# -- compose and the proxy ---------------------------------------------------------------------------


def test_compose_runs_two_nodes_a_worker_a_migration_and_a_proxy() -> None:
    services = yaml.safe_load(COMPOSE.read_text())["services"]
    assert {"postgres", "redis", "s3", "migrate", "worker", "proxy"} <= set(services)
    commands = {name: s.get("command") for name, s in services.items()}
    nodes = [n for n, c in commands.items() if c and c[:2] == ["atrium", "serve"]]
    assert len(nodes) == 2
    assert commands["worker"] == ["atrium", "worker"]
    assert commands["migrate"] == ["atrium", "db", "upgrade"]
    for name in [*nodes, "worker"]:
        env = services[name]["environment"]
        assert env["ATRIUM_TASK_THREADS"] == "0"
        assert env["ATRIUM_DATABASE_URL"].startswith("postgresql://")
        assert env["ATRIUM_REDIS_URL"].startswith("redis://")
        assert env["ATRIUM_STORAGE_URL"] == "s3://atrium?endpoint=http://s3:9000&region=us-east-1"
        assert env["ATRIUM_SECRET_KEY"].startswith("${ATRIUM_SECRET_KEY")
        assert services[name]["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
    assert services["migrate"]["depends_on"]["postgres"]["condition"] == "service_healthy"
    assert "./deploy/nginx.conf:/etc/nginx/nginx.conf:ro" in services["proxy"]["volumes"]


def test_proxy_upgrades_websockets_and_balances_both_nodes() -> None:
    conf = NGINX.read_text()
    assert re.search(r"server atrium-1:8000", conf) and re.search(r"server atrium-2:8000", conf)
    ws = re.search(r"location /ws \{(.*?)\n        \}", conf, re.DOTALL)
    assert ws, "no location /ws"
    block = ws.group(1)
    assert "proxy_http_version 1.1;" in block
    assert "proxy_set_header Upgrade $http_upgrade;" in block
    assert "proxy_set_header Connection $connection_upgrade;" in block
    assert conf.count("{") == conf.count("}")


def test_proxy_passes_a_read_to_the_other_node_but_never_a_sent_write() -> None:
    """As the rolling-restart benchmark measured it: a request that finds its node gone goes to the other
    one, except a POST (PATCH, LOCK) already sent, which the node may have acted on."""
    conf = directives(NGINX.read_text())
    server = block(conf, "server {")
    assert "proxy_next_upstream error timeout http_502;" in server
    assert "non_idempotent" not in conf
    assert re.search(r"proxy_connect_timeout [1-5]s;", server)
    for path in ("/ws", "/"):
        location = block(server, f"location {path} {{")
        assert "proxy_next_upstream" not in location, f"location {path} overrides the server's retries"


def test_proxy_passes_the_request_id_on() -> None:
    """The client's X-Request-Id reaches the node (which logs and answers it), or one nginx made."""
    conf = directives(NGINX.read_text())
    ids = block(conf, "map $http_x_request_id $atrium_request_id {")
    assert re.search(r"default\s+\$http_x_request_id;", ids) and re.search(r'""\s+\$request_id;', ids)
    server = block(conf, "server {")
    for path in ("/ws", "/"):
        assert "proxy_set_header X-Request-Id $atrium_request_id;" in block(server, f"location {path} {{")
    assert re.search(r"log_format atrium [^;]*\$atrium_request_id", conf), "the access log names the request"


def test_the_rolling_restart_benchmark_runs_this_proxy_config(tmp_path: Path) -> None:
    """Every directive of deploy/nginx.conf but the host-specific ones is what the benchmark ran."""
    from tests.bench.bench_rolling_restart import nginx_conf

    local = {line.strip() for line in directives(nginx_conf(tmp_path, 8001, 8002, 8080)).splitlines()}
    deployed = {line.strip() for line in directives(NGINX.read_text()).splitlines() if line.strip()}
    host_specific = {"worker_processes auto;", "listen 80;", "access_log /var/log/nginx/access.log atrium;"}
    nodes = {line for line in deployed if line.startswith("server atrium-")}
    assert len(nodes) == 2
    assert deployed - host_specific - nodes <= local
    assert {"server 127.0.0.1:8001 max_fails=1 fail_timeout=2s;", "listen 127.0.0.1:8080;"} <= local


# -- Kubernetes --------------------------------------------------------------------------------------


def containers(doc: dict[str, Any]) -> list[dict[str, Any]]:
    result: list[dict[str, Any]] = doc["spec"]["template"]["spec"]["containers"]
    return result


def test_kustomization_lists_every_manifest() -> None:
    kustomization = yaml.safe_load((K8S / "kustomization.yaml").read_text())
    assert sorted(kustomization["resources"]) == [p.name for p in manifests()]
    assert [i["name"] for i in kustomization["images"]] == ["atrium"]


def test_web_deployment_probes_and_resources() -> None:
    docs = k8s_docs()
    (web,) = containers(docs["Deployment/atrium-web"])
    assert web["command"][:2] == ["atrium", "serve"]
    assert web["livenessProbe"]["httpGet"]["path"] == "/healthz"
    assert web["readinessProbe"]["httpGet"]["path"] == "/readyz"
    assert web["resources"]["requests"] == {"cpu": "500m", "memory": "512Mi"}
    assert docs["Deployment/atrium-web"]["spec"]["replicas"] >= 2


def test_worker_job_configuration_and_secrets() -> None:
    docs = k8s_docs()
    (worker,) = containers(docs["Deployment/atrium-worker"])
    assert worker["command"] == ["atrium", "worker"]
    assert worker["resources"]["requests"]["cpu"] and worker["resources"]["requests"]["memory"]
    (migrate,) = containers(docs["Job/atrium-migrate"])
    assert migrate["command"] == ["atrium", "db", "upgrade"]
    assert docs["ConfigMap/atrium-config"]["data"]["ATRIUM_TASK_THREADS"] == "0"
    secret = docs["Secret/atrium-secrets"]["stringData"]
    assert {"ATRIUM_SECRET_KEY", "ATRIUM_DATABASE_URL"} <= set(secret)
    assert len(secret["ATRIUM_SECRET_KEY"]) < 32  # a placeholder the server refuses to start on
    for name in ("Deployment/atrium-web", "Deployment/atrium-worker", "Job/atrium-migrate"):
        pod = docs[name]["spec"]["template"]["spec"]
        assert pod["securityContext"]["runAsNonRoot"] is True
        for c in pod["containers"]:
            assert c["image"] == "atrium"
            refs = {next(iter(ref.values()))["name"] for ref in c["envFrom"]}
            assert refs == {"atrium-config", "atrium-secrets"}


def test_ingress_keeps_websockets_open() -> None:
    ingress = k8s_docs()["Ingress/atrium"]
    annotations = ingress["metadata"]["annotations"]
    assert int(annotations["nginx.ingress.kubernetes.io/proxy-read-timeout"]) >= 3600
    assert int(annotations["nginx.ingress.kubernetes.io/proxy-send-timeout"]) >= 3600
    backend = ingress["spec"]["rules"][0]["http"]["paths"][0]["backend"]["service"]
    assert backend["name"] in {n.split("/")[1] for n in k8s_docs() if n.startswith("Service/")}
