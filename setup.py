"""Packages under the import names `atrium.kernel`, `atrium.sdk` and `atrium.plugins.<name>`."""

from setuptools import find_namespace_packages, setup

FOLDERS = {"atrium.kernel": "kernel", "atrium.sdk": "sdk", "atrium.plugins": "plugins"}
SKIP = ["web", "web.*", "node_modules", "node_modules.*", "*.node_modules", "*.node_modules.*",
        "*.dist", "*.dist.*"]

packages = []
for name, folder in FOLDERS.items():
    packages.append(name)
    packages += [f"{name}.{sub}" for sub in find_namespace_packages(folder, exclude=SKIP)]

setup(packages=packages)
