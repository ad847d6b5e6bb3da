"""A real S3-compatible server on loopback for the storage tests: moto's server, spoken to over HTTP by
boto3 exactly as a bucket in production would be."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import boto3
import pytest
from moto.server import ThreadedMotoServer

REGION = "us-east-1"
CREDENTIALS = {"AWS_ACCESS_KEY_ID": "atrium-test", "AWS_SECRET_ACCESS_KEY": "atrium-test-secret"}


class S3Server:
    def __init__(self) -> None:
        server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
        server.start()
        self.server: ThreadedMotoServer | None = server
        host, port = server.get_host_and_port()
        self.endpoint = f"http://{host}:{port}"
        self.client: Any = boto3.client(
            "s3",
            endpoint_url=self.endpoint,
            region_name=REGION,
            aws_access_key_id=CREDENTIALS["AWS_ACCESS_KEY_ID"],
            aws_secret_access_key=CREDENTIALS["AWS_SECRET_ACCESS_KEY"],
        )

    def bucket(self) -> str:
        """A new empty bucket (each test its own, so tests do not see each other's objects)."""
        name = f"atrium-{secrets.token_hex(6)}"
        self.client.create_bucket(Bucket=name)
        return name

    def url(self, bucket: str) -> str:
        return f"s3://{bucket}?endpoint={self.endpoint}&region={REGION}"

    def keys(self, bucket: str) -> list[str]:
        answer = self.client.list_objects_v2(Bucket=bucket)
        return sorted(item["Key"] for item in answer.get("Contents", []))

    def stop(self) -> None:
        if self.server is not None:
            self.server.stop()
            self.server = None


@contextmanager
def s3_credentials() -> Iterator[None]:
    """The credentials boto3 finds in the environment, and nothing from the machine's AWS files."""
    with pytest.MonkeyPatch.context() as mp:
        for name, value in CREDENTIALS.items():
            mp.setenv(name, value)
        for name in ("AWS_SESSION_TOKEN", "AWS_PROFILE", "AWS_DEFAULT_PROFILE"):
            mp.delenv(name, raising=False)
        mp.setenv("AWS_CONFIG_FILE", "/nonexistent/atrium-aws-config")
        mp.setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/atrium-aws-credentials")
        yield


@contextmanager
def running_s3() -> Iterator[S3Server]:
    with s3_credentials():
        server = S3Server()
        try:
            yield server
        finally:
            server.stop()
