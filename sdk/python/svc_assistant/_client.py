"""The API clients: :class:`Svc` (sync, ``httpx.Client``) and :class:`AsyncSvc` (``httpx.AsyncClient``).

A thin hand-written layer over the models that openapi-python-client generates from the API's OpenAPI
document (``svc_assistant._generated``, made by ``npm run sdk:generate``; never edited by hand):

- **Retries** of 408, 409 ``idempotency_key_in_use``, 429, 5xx and connection failures, ``max_retries``
  times (default 2), exponential backoff with jitter (0.5 s doubling, at most 8 s) or ``Retry-After``
  seconds when the server sends it. Every POST carries an ``Idempotency-Key`` generated once per logical
  request (or yours: ``idempotency_key=``) and reused by its retries, so a retried create never creates twice.
- **Auto-pagination**: ``list()`` returns a :class:`Page`; ``page.auto_paging_iter()`` walks every object of
  every page through ``starting_after`` cursors (an async generator on :class:`AsyncSvc`).
- **Typed results**: objects come back as the generated attrs models (``Call``, ``Agent``, ``Event``…),
  whose ``additional_properties`` keep fields newer than this SDK; errors as :mod:`svc_assistant.errors`.
"""

from __future__ import annotations

import asyncio
import importlib
import random
import time
import uuid
from typing import Any, AsyncIterator, Dict, Generic, Iterator, List, Optional, TypeVar

import httpx

from .errors import ERROR_CLASSES, APIConnectionError, APIError, InvalidRequestError, SvcError

API_VERSION = "2026-10-04"
"""The API version label the generated models describe, sent as ``Svc-Version``."""

DEFAULT_BASE_URL = "http://localhost:3000"
_RETRYABLE = {408, 429, 500, 502, 503, 504}

T = TypeVar("T")


def _model(name: Optional[str], data: Any) -> Any:
    """``data`` as the generated model ``name`` (``Call``…), or as it came when there is none."""
    if name is None or not isinstance(data, dict):
        return data
    module = importlib.import_module(".".join([__package__, "_generated", "models"]))
    cls = getattr(module, name, None)
    if cls is not None:
        return cls.from_dict(data)
    # A `oneOf` discriminated by `type` (Event: CallEvent, MessageEvent…; Tool: HttpTool, McpTool) has no
    # class of its own: the variant is the model named `…<name>` whose `<variant>Type` enum holds the type.
    for variant in (n for n in dir(module) if n.endswith(name) and n != name):
        kinds = getattr(module, variant + "Type", None)
        if kinds is not None and data.get("type") in {k.value for k in kinds}:
            return getattr(module, variant).from_dict(data)
    return data


def _flatten(query: Optional[Dict[str, Any]]) -> List[tuple]:
    """``{"created": {"gte": 5}, "limit": 3}`` → ``[("created[gte]", "5"), ("limit", "3")]``."""
    out: List[tuple] = []

    def add(key: str, v: Any) -> None:
        if v is None:
            return
        if isinstance(v, dict):
            for k, x in v.items():
                add(f"{key}[{k}]", x)
        elif isinstance(v, (list, tuple)):
            for x in v:
                add(key, x)
        elif isinstance(v, bool):
            out.append((key, "true" if v else "false"))
        else:
            out.append((key, str(v)))

    for k, v in (query or {}).items():
        add(k, v)
    return out


def _error(res: httpx.Response) -> SvcError:
    try:
        body = res.json()["error"]
        assert isinstance(body, dict) and body.get("type")
    except Exception:  # noqa: BLE001 - not the API's error object
        body = {"type": "api_error", "code": "invalid_response", "message": f"HTTP {res.status_code}: {res.text[:200]}"}
    ra = res.headers.get("retry-after")
    cls = ERROR_CLASSES.get(body["type"], APIError if res.status_code >= 500 else InvalidRequestError)
    return cls(
        body.get("message", ""),
        type=body["type"],
        code=body.get("code", ""),
        param=body.get("param"),
        status_code=res.status_code,
        request_id=res.headers.get("request-id"),
        retry_after=float(ra) if ra and ra.isdigit() else None,
        body=body,
    )


def _retryable(e: SvcError) -> bool:
    if isinstance(e, APIConnectionError):
        return True
    if e.status_code == 409:
        return e.code == "idempotency_key_in_use"
    return e.status_code in _RETRYABLE or e.status_code > 500


def _delay(e: SvcError, attempt: int) -> float:
    if e.retry_after is not None:
        return min(e.retry_after, 60.0)
    return min(8.0, 0.5 * 2**attempt) * (0.5 + random.random() / 2)


class Page(Generic[T]):
    """One page of a list (``data``, ``has_more``); ``auto_paging_iter()`` walks every page after it."""

    def __init__(self, client: "Svc", path: str, query: Dict[str, Any], body: Dict[str, Any], model: Optional[str]):
        self._client, self._path, self._query, self._model = client, path, query, model
        self.has_more: bool = bool(body.get("has_more"))
        self.data: List[T] = [_model(model, x) for x in body.get("data", [])]
        self._raw_ids = [x.get("id") for x in body.get("data", [])]

    def __iter__(self) -> Iterator[T]:
        return iter(self.data)

    def __len__(self) -> int:
        return len(self.data)

    def auto_paging_iter(self) -> Iterator[T]:
        page: Page[T] = self
        while True:
            yield from page.data
            if not page.has_more or not page._raw_ids:
                return
            query = {**self._query, "starting_after": page._raw_ids[-1]}
            query.pop("ending_before", None)
            page = self._client._list(self._path, query, self._model)


class AsyncPage(Generic[T]):
    """One page of a list on :class:`AsyncSvc`; ``auto_paging_iter()`` is an async generator."""

    def __init__(self, client: "AsyncSvc", path: str, query: Dict[str, Any], body: Dict[str, Any], model: Optional[str]):
        self._client, self._path, self._query, self._model = client, path, query, model
        self.has_more: bool = bool(body.get("has_more"))
        self.data: List[T] = [_model(model, x) for x in body.get("data", [])]
        self._raw_ids = [x.get("id") for x in body.get("data", [])]

    def __iter__(self) -> Iterator[T]:
        return iter(self.data)

    def __len__(self) -> int:
        return len(self.data)

    async def auto_paging_iter(self) -> AsyncIterator[T]:
        page: AsyncPage[T] = self
        while True:
            for item in page.data:
                yield item
            if not page.has_more or not page._raw_ids:
                return
            query = {**self._query, "starting_after": page._raw_ids[-1]}
            query.pop("ending_before", None)
            page = await self._client._list(self._path, query, self._model)


class _Base:
    def __init__(self, api_key: str, base_url: str, max_retries: int, timeout: float) -> None:
        if not api_key:
            raise ValueError("api_key is required")
        self.api_key = api_key
        self.base_url = base_url.rstrip("/")
        self.max_retries = max_retries
        self.timeout = timeout
        from ._resources import resources

        for name, resource in resources(self).items():
            setattr(self, name, resource)

    def _headers(self, method: str, idempotency_key: Optional[str]) -> Dict[str, str]:
        h = {
            "Authorization": f"Bearer {self.api_key}",
            "Svc-Version": API_VERSION,
            "User-Agent": f"svc-assistant-python/{API_VERSION}",
        }
        if method == "POST":
            h["Idempotency-Key"] = idempotency_key or str(uuid.uuid4())
        return h


class Svc(_Base):
    """The synchronous client: ``Svc(api_key="sk_test_…", base_url="http://localhost:3000")``.

    Resources: ``calls``, ``agents``, ``tools``, ``messages``, ``conversations``, ``contacts``, ``records``,
    ``knowledge``, ``bulk_calls``, ``webhook_endpoints``, ``events``, ``usage``, ``account``, ``test_helpers``.
    """

    def __init__(
        self,
        api_key: str,
        base_url: str = DEFAULT_BASE_URL,
        max_retries: int = 2,
        timeout: float = 60.0,
        http_client: Optional[httpx.Client] = None,
    ) -> None:
        self._http = http_client or httpx.Client(timeout=timeout)
        super().__init__(api_key, base_url, max_retries, timeout)

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> "Svc":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def request(
        self,
        method: str,
        path: str,
        *,
        query: Optional[Dict[str, Any]] = None,
        body: Any = None,
        idempotency_key: Optional[str] = None,
        max_retries: Optional[int] = None,
    ) -> Any:
        """One request with the SDK's retries; returns the parsed JSON or raises a :class:`SvcError`."""
        headers = self._headers(method, idempotency_key)
        retries = self.max_retries if max_retries is None else max_retries
        for attempt in range(retries + 1):
            try:
                res = self._http.request(
                    method, self.base_url + path, params=_flatten(query), json=body, headers=headers, timeout=self.timeout
                )
                if res.is_success:
                    return res.json() if res.content else None
                err = _error(res)
            except httpx.TransportError as e:
                err = APIConnectionError(
                    f"Request to {self.base_url + path} failed: {e}", type="api_connection_error", code="connection_failed"
                )
            if attempt >= retries or not _retryable(err):
                raise err
            time.sleep(_delay(err, attempt))
        raise AssertionError("unreachable")

    def _list(self, path: str, query: Dict[str, Any], model: Optional[str]) -> Page[Any]:
        return Page(self, path, query, self.request("GET", path, query=query), model)


class AsyncSvc(_Base):
    """The asyncio client: ``AsyncSvc(api_key=…)``; the same resources, each method awaited."""

    def __init__(
        self,
        api_key: str,
        base_url: str = DEFAULT_BASE_URL,
        max_retries: int = 2,
        timeout: float = 60.0,
        http_client: Optional[httpx.AsyncClient] = None,
    ) -> None:
        self._http = http_client or httpx.AsyncClient(timeout=timeout)
        super().__init__(api_key, base_url, max_retries, timeout)

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> "AsyncSvc":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.aclose()

    async def request(
        self,
        method: str,
        path: str,
        *,
        query: Optional[Dict[str, Any]] = None,
        body: Any = None,
        idempotency_key: Optional[str] = None,
        max_retries: Optional[int] = None,
    ) -> Any:
        """One request with the SDK's retries; returns the parsed JSON or raises a :class:`SvcError`."""
        headers = self._headers(method, idempotency_key)
        retries = self.max_retries if max_retries is None else max_retries
        for attempt in range(retries + 1):
            try:
                res = await self._http.request(
                    method, self.base_url + path, params=_flatten(query), json=body, headers=headers, timeout=self.timeout
                )
                if res.is_success:
                    return res.json() if res.content else None
                err = _error(res)
            except httpx.TransportError as e:
                err = APIConnectionError(
                    f"Request to {self.base_url + path} failed: {e}", type="api_connection_error", code="connection_failed"
                )
            if attempt >= retries or not _retryable(err):
                raise err
            await asyncio.sleep(_delay(err, attempt))
        raise AssertionError("unreachable")

    async def _list(self, path: str, query: Dict[str, Any], model: Optional[str]) -> AsyncPage[Any]:
        return AsyncPage(self, path, query, await self.request("GET", path, query=query), model)
