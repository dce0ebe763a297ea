"""Static files: whitenoise's middleware, and the version in their addresses (below).

whitenoise's middleware (static files, DEBUG off) is async-capable: under config/asgi.py the waiting requests go
through Django's async handler, and one sync-only middleware would make it run their coroutine views through a
thread that waits for them. A static file is never such a request: in async mode the middleware only looks the path
up (a dictionary, unless DEBUG reloads files) and passes the request on."""

from __future__ import annotations

import hashlib
from functools import lru_cache

from asgiref.sync import iscoroutinefunction, markcoroutinefunction, sync_to_async
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import StaticFilesStorage
from whitenoise.middleware import WhiteNoiseMiddleware


class StaticFilesMiddleware(WhiteNoiseMiddleware):
    sync_capable = True
    async_capable = True

    def __init__(self, get_response=None, *args, **kwargs):
        super().__init__(get_response, *args, **kwargs)
        self._async = iscoroutinefunction(get_response)
        if self._async:
            markcoroutinefunction(self)

    def __call__(self, request):
        if self._async:
            return self.__acall__(request)
        return super().__call__(request)

    async def __acall__(self, request):
        if self.autorefresh:
            static_file = await sync_to_async(self.find_file)(request.path_info)
        else:
            static_file = self.files.get(request.path_info)
        if static_file is not None:
            return await sync_to_async(self.serve)(static_file, request)
        return await self.get_response(request)


# The version of the static files, in their addresses --------------------------------------------------------------
# A phone keeps the static files in its service worker's cache and serves them from there first (static/pwa/sw.js),
# so that the board opens without the club's Wi-Fi. `make run` serves them under their own names: without a version
# in the address, a phone that had opened the site kept the old scripts after the laptop's Armlist was upgraded, and
# ran them under the new pages. The version is a digest of every static file as collectstatic would collect it: it
# changes exactly when one of them does. It also names the worker's cache (config/pwa.py), so the upgrade drops the
# old files. (Production's manifest storage puts a digest in each file's name instead.)

IGNORE_PATTERNS = ["CVS", ".*", "*~"]  # collectstatic's defaults


def static_digest(files) -> str:
    """A short digest of `files`: (path, bytes) pairs, in any order."""
    digest = hashlib.sha256()
    for path, content in sorted(files):
        digest.update(path.encode())
        digest.update(b"\0")
        digest.update(hashlib.sha256(content).digest())
    return digest.hexdigest()[:12]


@lru_cache(maxsize=1)
def static_version() -> str:
    """The digest of the static files the finders find (the first of a path wins, as with collectstatic); once per
    process, so a server serves one version from its start to its end."""
    found: dict[str, bytes] = {}
    for finder in finders.get_finders():
        for path, storage in finder.list(IGNORE_PATTERNS):
            if path not in found:
                with storage.open(path) as f:
                    found[path] = f.read()
    return static_digest(found.items())


class VersionedStaticFilesStorage(StaticFilesStorage):
    """`{% static %}` addresses with the static files' version: `/static/battles/battle.js?v=3f2a…`."""

    def url(self, name):
        url = super().url(name)
        return f"{url}{'&' if '?' in url else '?'}v={static_version()}"
