"""Office documents to PDF with LibreOffice (Debian's `libreoffice-*-nogui` packages), headless.

One conversion runs at a time per server process (`Limits.conversions`), in a temporary folder, with a
LibreOffice profile of the process's own (reused, so only the first conversion pays for creating it; a
profile is never shared by two processes at once). The profile turns off macros and sends every network
fetch (linked pictures, remote templates) to a proxy that does not exist, so a document cannot make the
server call out. A conversion that passes its time limit is killed with its process group.
"""

from __future__ import annotations

import os
import queue
import shutil
import signal
import subprocess
import tempfile
import threading
from pathlib import Path

from atrium.plugins.watermark import limits

#: the file name suffixes converted (the bytes must also be a ZIP or an OLE2 container)
SUFFIXES = ("doc", "docx", "xls", "xlsx", "ppt", "pptx", "odt", "ods", "odp")
ZIP_MAGIC = b"PK\x03\x04"
OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
FALLBACK = "/usr/lib/libreoffice/program/soffice"

#: the profile's settings: macros off, untrusted links blocked, every fetch sent to a proxy nobody runs
_SETTINGS = (
    ("/org.openoffice.Office.Common/Security/Scripting", "MacroSecurityLevel", "3"),
    ("/org.openoffice.Office.Common/Security/Scripting", "DisableMacrosExecution", "true"),
    ("/org.openoffice.Office.Common/Security/Scripting", "BlockUntrustedRefererLinks", "true"),
    ("/org.openoffice.Inet/Settings", "ooInetProxyType", "2"),
    ("/org.openoffice.Inet/Settings", "ooInetHTTPProxyName", "127.0.0.1"),
    ("/org.openoffice.Inet/Settings", "ooInetHTTPProxyPort", "9"),
    ("/org.openoffice.Inet/Settings", "ooInetHTTPSProxyName", "127.0.0.1"),
    ("/org.openoffice.Inet/Settings", "ooInetHTTPSProxyPort", "9"),
    ("/org.openoffice.Inet/Settings", "ooInetFTPProxyName", "127.0.0.1"),
    ("/org.openoffice.Inet/Settings", "ooInetFTPProxyPort", "9"),
    ("/org.openoffice.Inet/Settings", "ooInetNoProxy", ""),
)


def _registry() -> str:
    items = "".join(
        f'<item oor:path="{path}"><prop oor:name="{name}" oor:op="fuse">'
        f"<value>{value}</value></prop></item>\n"
        for path, name, value in _SETTINGS
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<oor:items xmlns:oor="http://openoffice.org/2001/registry" '
        'xmlns:xs="http://www.w3.org/2001/XMLSchema" '
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n' + items + "</oor:items>\n"
    )


class ConverterMissing(RuntimeError):
    """LibreOffice is not installed."""


class ConversionTimeout(RuntimeError):
    pass


class ConversionFailed(RuntimeError):
    pass


class Busy(RuntimeError):
    """Every conversion slot stayed taken for `Limits.queue_wait` seconds."""


_pool_lock = threading.Lock()
_pool: tuple[int, queue.Queue[int]] | None = None


def _free_slots() -> queue.Queue[int]:
    """The profile numbers not in use, `Limits.conversions` of them (made again when the limit changes)."""
    global _pool
    wanted = max(1, limits.current().conversions)
    with _pool_lock:
        if _pool is None or _pool[0] != wanted:
            free: queue.Queue[int] = queue.Queue()
            for n in range(wanted):
                free.put(n)
            _pool = (wanted, free)
        return _pool[1]


def is_office(data: bytes, suffix: str) -> bool:
    """Whether a file is one this module converts: a known suffix and the container its format uses."""
    return suffix.lower() in SUFFIXES and (data.startswith(ZIP_MAGIC) or data.startswith(OLE_MAGIC))


def soffice() -> str:
    """The LibreOffice command; ConverterMissing when it is not installed."""
    found = shutil.which("soffice") or shutil.which("libreoffice")
    if found:
        return found
    if Path(FALLBACK).is_file():
        return FALLBACK
    raise ConverterMissing()


def _profile(slot: int) -> Path:
    """This process's LibreOffice profile for one slot, made on first use."""
    folder = Path(tempfile.gettempdir()) / f"atrium-soffice-{os.getpid()}-{slot}"
    settings = folder / "user" / "registrymodifications.xcu"
    if not settings.exists():
        settings.parent.mkdir(parents=True, exist_ok=True)
        settings.write_text(_registry(), encoding="utf-8")
    return folder


def to_pdf(data: bytes, suffix: str) -> bytes:
    """The document converted to PDF. Raises ConverterMissing, Busy, ConversionTimeout or
    ConversionFailed."""
    command = soffice()
    rules = limits.current()
    free = _free_slots()
    try:
        slot = free.get(timeout=rules.queue_wait)
    except queue.Empty:
        raise Busy() from None
    try:
        return _convert(command, _profile(slot), data, suffix.lower(), rules.convert_timeout)
    finally:
        free.put(slot)


def _convert(command: str, profile: Path, data: bytes, suffix: str, timeout: float) -> bytes:
    with tempfile.TemporaryDirectory(prefix="atrium-convert-") as work:
        src = Path(work) / f"document.{suffix}"
        src.write_bytes(data)
        out = Path(work) / "out"
        args = [
            command,
            f"-env:UserInstallation={profile.as_uri()}",
            "--headless",
            "--invisible",
            "--nologo",
            "--nodefault",
            "--norestore",
            "--nolockcheck",
            "--convert-to",
            "pdf",
            "--outdir",
            str(out),
            str(src),
        ]
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": work,
            "LANG": "C.UTF-8",
            "SAL_USE_VCLPLUGIN": "svp",
        }
        proc = subprocess.Popen(
            args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=work, start_new_session=True
        )
        try:
            _, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            _kill(proc)
            shutil.rmtree(profile, ignore_errors=True)  # a killed run may leave its profile locked
            raise ConversionTimeout() from None
        pdf = out / "document.pdf"
        if proc.returncode != 0 or not pdf.is_file():
            raise ConversionFailed(err.decode("utf-8", "replace")[-500:])
        return pdf.read_bytes()


def _kill(proc: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.communicate()
