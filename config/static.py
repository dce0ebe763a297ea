"""whitenoise's middleware (static files, DEBUG off), async-capable: under config/asgi.py the waiting requests go
through Django's async handler, and one sync-only middleware would make it run their coroutine views through a
thread that waits for them. A static file is never such a request: in async mode the middleware only looks the path
up (a dictionary, unless DEBUG reloads files) and passes the request on."""

from __future__ import annotations

from asgiref.sync import iscoroutinefunction, markcoroutinefunction, sync_to_async
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
