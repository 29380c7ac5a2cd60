"""The clients: :class:`Svc` (sync) and :class:`AsyncSvc` (asyncio), each with every resource of the API."""

from __future__ import annotations

from typing import Any, Optional

import httpx

from ._client import API_VERSION, DEFAULT_BASE_URL
from ._generated.resources import AsyncResources, SyncResources


class Svc(SyncResources):
    """The synchronous client: ``Svc(api_key="svc_sk_test_…", base_url="http://localhost:3000")``.

    Resources mirror the API's paths: ``svc.calls.create(...)``, ``svc.bulk_calls.results.list(id)``,
    ``svc.agents.versions.publish(id, version)``. ``max_retries`` (default 2) and ``timeout`` (seconds,
    default 60) apply to every request unless its ``options`` say otherwise; ``svc_version`` is the
    ``Svc-Version`` the answers are rendered in (default: the version this SDK was generated from).
    """

    def __init__(
        self,
        api_key: str,
        base_url: str = DEFAULT_BASE_URL,
        max_retries: int = 2,
        timeout: float = 60.0,
        svc_version: str = API_VERSION,
        http_client: Optional[httpx.Client] = None,
    ) -> None:
        super().__init__(api_key, base_url, max_retries, timeout, svc_version, http_client)
        self._attach_resources()

    def __enter__(self) -> "Svc":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class AsyncSvc(AsyncResources):
    """The asyncio client: ``AsyncSvc(api_key=…)``; the same resources, each method awaited (a list
    method's pager is awaited for its first page or walked with ``async for``)."""

    def __init__(
        self,
        api_key: str,
        base_url: str = DEFAULT_BASE_URL,
        max_retries: int = 2,
        timeout: float = 60.0,
        svc_version: str = API_VERSION,
        http_client: Optional[httpx.AsyncClient] = None,
    ) -> None:
        super().__init__(api_key, base_url, max_retries, timeout, svc_version, http_client)
        self._attach_resources()

    async def __aenter__(self) -> "AsyncSvc":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.aclose()
