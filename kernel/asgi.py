"""The ASGI app for uvicorn: `atrium.kernel.asgi:app`."""

from atrium.kernel.app import create_app
from atrium.kernel.config import get_settings

get_settings().check_secret()
app = create_app()
