"""The HTTP core of :class:`~svc_assistant.Svc` (``httpx.Client``) and :class:`~svc_assistant.AsyncSvc`
(``httpx.AsyncClient``), under the generated resources (``svc_assistant._generated.resources``):

- **Retries** of 408, 409 ``idempotency_key_in_use``, 429, 5xx and connection failures, ``max_retries``
  times (default 2), exponential backoff with jitter (0.5 s doubling, at most 8 s) or ``Retry-After``
  seconds when the server sends it (at most 60 s). Every POST carries an ``Idempotency-Key`` generated once
  per logical request (or yours: ``options={"idempotency_key": …}``) and reused by its retries, so a
  retried create never creates twice.
- **Per-request options** (:class:`RequestOptions`): ``timeout`` (seconds), ``api_key``,
  ``idempotency_key``, ``svc_version`` (the ``Svc-Version`` header), ``max_retries``.
- **Typed answers**: the generated pydantic models; an answer that does not match its model raises
  :class:`~svc_assistant.errors.APIResponseValidationError`; errors as :mod:`svc_assistant.errors`.
- **Pagination**: a list method returns a :class:`SyncPage` (``AsyncSvc``: an :class:`AsyncPager`, to
  ``await`` for the first page or ``async for`` over every object); iterating walks every page through
  ``starting_after`` cursors (``ending_before`` when you page backwards).
- **Streams**: ``text/event-stream`` answers as an iterator of :class:`CallStreamEvent`.
"""

from __future__ import annotations

import asyncio
import json
import keyword
import random
import time
import uuid
from typing import (
    Any,
    AsyncIterator,
    Awaitable,
    Callable,
    Dict,
    Generator,
    Generic,
    Iterator,
    List,
    Mapping,
    Optional,
    Tuple,
    TypeVar,
)
from urllib.parse import quote

import httpx
import pydantic
from typing_extensions import TypedDict

from .errors import (
    ERROR_CLASSES,
    STATUS_CLASSES,
    APIConnectionError,
    APIError,
    APIResponseValidationError,
    InvalidRequestError,
    SvcError,
)

API_VERSION = "2026-10-04"
"""The API version label the generated models describe, sent as ``Svc-Version``."""

DEFAULT_BASE_URL = "http://localhost:3000"
_RETRYABLE = {408, 429, 500, 502, 503, 504}

T = TypeVar("T")
R = TypeVar("R")
M = TypeVar("M", bound=pydantic.BaseModel)
Parse = Callable[[Any], T]


class RequestOptions(TypedDict, total=False):
    """Options of one request, overriding the client's: ``options={"timeout": 5, "idempotency_key": "k"}``."""

    timeout: float
    """Seconds for each attempt (connect, read, write, pool)."""
    api_key: str
    """Another key for this request (e.g. a restricted one)."""
    idempotency_key: str
    """The POST's ``Idempotency-Key`` (default: a UUID per logical request, reused by its retries)."""
    svc_version: str
    """The ``Svc-Version`` the answer is rendered in (default: the SDK's :data:`API_VERSION`)."""
    max_retries: int
    """Retries of this request (default: the client's ``max_retries``)."""


class GenericEvent(pydantic.BaseModel):
    """An event of a type this SDK does not know (a newer API version's): its envelope, ``data`` as sent."""

    model_config = pydantic.ConfigDict(extra="allow")
    id: str
    object: str = "event"
    type: str
    created: Optional[int] = None
    livemode: Optional[bool] = None
    api_version: Optional[str] = None
    data: Dict[str, Any] = {}


class CallStreamEvent(pydantic.BaseModel):
    """One event of ``calls.stream(id)``: ``event`` is ``status``, ``turn``, ``tool_call`` or ``end``;
    ``id`` its place in the call's stream (resume after it with ``last_event_id``); ``data`` its object."""

    event: str
    id: Optional[int] = None
    data: Dict[str, Any] = {}


def seg(value: Any) -> str:
    """A path parameter, percent-encoded as one path segment."""
    return quote(str(value), safe="")


def model(cls: type[M]) -> Callable[[Any], M]:
    """The parser of answers of model ``cls``."""
    return cls.model_validate


def root(cls: type[pydantic.RootModel[R]]) -> Callable[[Any], R]:
    """The parser of answers that are one of several models (a ``oneOf``): the variant's model."""
    return lambda data: cls.model_validate(data).root


def parse_event(data: Any, models: Mapping[str, type[pydantic.BaseModel]]) -> pydantic.BaseModel:
    """An event object as the model of its ``type`` (``models``), or a :class:`GenericEvent`."""
    cls = models.get(data.get("type", "")) if isinstance(data, dict) else None
    return (cls or GenericEvent).model_validate(data)


def _wire_params(params: Mapping[str, Any]) -> Dict[str, Any]:
    """Params as the API names them: ``from_`` -> ``from`` (keywords carry a trailing underscore)."""
    return {(k[:-1] if k.endswith("_") and keyword.iskeyword(k[:-1]) else k): v for k, v in params.items()}


def _flatten(query: Optional[Mapping[str, Any]]) -> List[Tuple[str, str]]:
    """``{"created": {"gte": 5}, "limit": 3}`` -> ``[("created[gte]", "5"), ("limit", "3")]``."""
    out: List[Tuple[str, str]] = []

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
    """The typed error of an answer that is not 2xx (by ``error.type``, then by status)."""
    try:
        body = res.json()["error"]
        assert isinstance(body, dict) and body.get("type")
    except Exception:  # noqa: BLE001 - not the API's error object
        body = {"type": "api_error", "code": "invalid_response", "message": f"HTTP {res.status_code}: {res.text[:200]}"}
    ra = res.headers.get("retry-after")
    cls = ERROR_CLASSES.get(body["type"], APIError if res.status_code >= 500 else InvalidRequestError)
    if cls is InvalidRequestError:
        cls = STATUS_CLASSES.get(res.status_code, cls)
    return cls(
        str(body.get("message", "")),
        type=str(body["type"]),
        code=str(body.get("code", "")),
        param=body.get("param"),
        status_code=res.status_code,
        request_id=res.headers.get("request-id") or body.get("request_id"),
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
    return float(min(8.0, 0.5 * 2**attempt) * (0.5 + random.random() / 2))


def _cast(parse: Optional[Callable[[Any], T]], res: httpx.Response) -> T:
    data = res.json() if res.content else None
    if parse is None:
        return data  # type: ignore[return-value]
    try:
        return parse(data)
    except pydantic.ValidationError as e:
        raise APIResponseValidationError(
            f"The answer to {res.request.method} {res.request.url.path} does not match the SDK's model: {e}",
            type="api_error",
            code="response_validation_failed",
            status_code=res.status_code,
            request_id=res.headers.get("request-id"),
            body=data,
        ) from e


def _sse(lines: Iterator[str]) -> Iterator[CallStreamEvent]:
    """Server-sent events (WHATWG HTML, "Server-sent events") from the lines of a stream."""
    event = "message"
    data: List[str] = []
    ident_now: Optional[int] = None
    for line in lines:
        if line == "":
            if data:
                text = "\n".join(data)
                parsed = json.loads(text) if text.startswith("{") else {"value": text}
                yield CallStreamEvent(event=event, id=ident_now, data=parsed)
            event, data = "message", []
            continue
        if line.startswith(":"):
            continue
        field, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if field == "event":
            event = value
        elif field == "data":
            data.append(value)
        elif field == "id" and value.isdigit():
            ident_now = int(value)


class Stream(Generic[T]):
    """The events of a ``text/event-stream`` answer: iterate it; ``close()`` (or ``with``) ends it early."""

    def __init__(self, response: httpx.Response) -> None:
        self.response = response
        self._events = _sse(response.iter_lines())

    def __iter__(self) -> Iterator[CallStreamEvent]:
        try:
            yield from self._events
        finally:
            self.close()

    def close(self) -> None:
        self.response.close()

    def __enter__(self) -> "Stream[T]":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class AsyncStream(Generic[T]):
    """The events of a ``text/event-stream`` answer on :class:`AsyncSvc`: ``async for``; ``aclose()``."""

    def __init__(self, response: httpx.Response) -> None:
        self.response = response

    async def __aiter__(self) -> AsyncIterator[CallStreamEvent]:
        lines: List[str] = []
        try:
            async for line in self.response.aiter_lines():
                lines.append(line)
                if line == "":
                    for event in _sse(iter(lines)):
                        yield event
                    lines = []
        finally:
            await self.aclose()

    async def aclose(self) -> None:
        await self.response.aclose()

    async def __aenter__(self) -> "AsyncStream[T]":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.aclose()


def _next_query(params: Mapping[str, Any], body: Any) -> Optional[Dict[str, Any]]:
    """The params of the page after ``body``, or None when it was the last."""
    items = body.get("data") or []
    if not body.get("has_more") or not items or not isinstance(items[-1], dict):
        return None
    if params.get("ending_before"):
        return {**params, "ending_before": items[0].get("id")}
    return {**params, "starting_after": items[-1].get("id")}


class SyncPage(Generic[T]):
    """One page of a list (``data``, ``has_more``). Iterating it walks every object of every page after it."""

    def __init__(self, client: "SyncAPIClient", path: str, parse: Parse[T], params: Mapping[str, Any], body: Any, options: Optional[RequestOptions]) -> None:
        self._client, self._path, self._parse, self._params, self._options = client, path, parse, params, options
        self._next = _next_query(params, body)
        self.has_more: bool = bool(body.get("has_more"))
        self.data: List[T] = [parse(x) for x in body.get("data", [])]

    def __iter__(self) -> Iterator[T]:
        return self.auto_paging_iter()

    def auto_paging_iter(self) -> Iterator[T]:
        """Every object of this page and the pages after it (one request per page, as you iterate)."""
        page: Optional[SyncPage[T]] = self
        while page is not None:
            yield from page.data
            page = page.next_page()

    def next_page(self) -> Optional["SyncPage[T]"]:
        """The page after this one, or None."""
        if self._next is None:
            return None
        return self._client._list(self._path, self._parse, self._next, self._options)


class AsyncPage(Generic[T]):
    """One page of a list on :class:`AsyncSvc`; ``async for`` over it walks every page after it."""

    def __init__(self, client: "AsyncAPIClient", path: str, parse: Parse[T], params: Mapping[str, Any], body: Any, options: Optional[RequestOptions]) -> None:
        self._client, self._path, self._parse, self._params, self._options = client, path, parse, params, options
        self._next = _next_query(params, body)
        self.has_more: bool = bool(body.get("has_more"))
        self.data: List[T] = [parse(x) for x in body.get("data", [])]

    def __aiter__(self) -> AsyncIterator[T]:
        return self.auto_paging_iter()

    async def auto_paging_iter(self) -> AsyncIterator[T]:
        """Every object of this page and the pages after it."""
        page: Optional[AsyncPage[T]] = self
        while page is not None:
            for item in page.data:
                yield item
            page = await page.next_page()

    async def next_page(self) -> Optional["AsyncPage[T]"]:
        """The page after this one, or None."""
        if self._next is None:
            return None
        return await self._client._list(self._path, self._parse, self._next, self._options)


class AsyncPager(Generic[T]):
    """What a list method of :class:`AsyncSvc` returns: ``await`` it for the first :class:`AsyncPage`, or
    ``async for`` over it for every object of every page."""

    def __init__(self, first: Awaitable[AsyncPage[T]]) -> None:
        self._first = first
        self._page: Optional[AsyncPage[T]] = None

    async def _get(self) -> AsyncPage[T]:
        if self._page is None:
            self._page = await self._first
        return self._page

    def __await__(self) -> Generator[Any, None, AsyncPage[T]]:
        return self._get().__await__()

    async def __aiter__(self) -> AsyncIterator[T]:
        async for item in (await self._get()).auto_paging_iter():
            yield item


class _BaseClient:
    def __init__(self, api_key: str, base_url: str, max_retries: int, timeout: float, svc_version: str) -> None:
        if not api_key:
            raise ValueError("api_key is required")
        self.api_key = api_key
        self.base_url = base_url.rstrip("/")
        self.max_retries = max_retries
        self.timeout = timeout
        self.svc_version = svc_version

    def _prepare(self, method: str, path: str, params: Mapping[str, Any], options: Optional[RequestOptions]) -> Dict[str, Any]:
        """The httpx arguments of one logical request (its ``Idempotency-Key`` fixed here, once)."""
        o = options or {}
        headers = {
            "Authorization": f"Bearer {o.get('api_key', self.api_key)}",
            "Svc-Version": o.get("svc_version", self.svc_version),
            "User-Agent": f"svc-assistant-python/{API_VERSION}",
        }
        wire = _wire_params(params)
        if method in ("POST", "PUT", "PATCH"):
            headers["Idempotency-Key"] = o.get("idempotency_key") or str(uuid.uuid4())
            return {"method": method, "url": self.base_url + path, "json": wire, "headers": headers, "timeout": o.get("timeout", self.timeout)}
        return {"method": method, "url": self.base_url + path, "params": _flatten(wire), "headers": headers, "timeout": o.get("timeout", self.timeout)}

    def _retries(self, options: Optional[RequestOptions]) -> int:
        return (options or {}).get("max_retries", self.max_retries)


class SyncAPIClient(_BaseClient):
    """The synchronous HTTP core (``httpx.Client``)."""

    def __init__(self, api_key: str, base_url: str, max_retries: int, timeout: float, svc_version: str, http_client: Optional[httpx.Client]) -> None:
        super().__init__(api_key, base_url, max_retries, timeout, svc_version)
        self._http = http_client or httpx.Client(timeout=timeout)

    def close(self) -> None:
        self._http.close()

    def _send(self, method: str, path: str, params: Mapping[str, Any], options: Optional[RequestOptions], stream: bool = False) -> httpx.Response:
        """One logical request with the SDK's retries: the 2xx answer, or raises a :class:`SvcError`."""
        args = self._prepare(method, path, params, options)
        retries = self._retries(options)
        for attempt in range(retries + 1):
            try:
                res = self._http.send(self._http.build_request(**args), stream=stream)
                if res.is_success:
                    return res
                if stream:
                    res.read()
                err = _error(res)
            except httpx.TransportError as e:
                err = APIConnectionError(f"Request to {args['url']} failed: {e}", type="api_connection_error", code="connection_failed")
            if attempt >= retries or not _retryable(err):
                raise err
            time.sleep(_delay(err, attempt))
        raise AssertionError("unreachable")

    def _request(self, method: str, path: str, parse: Optional[Parse[T]], params: Mapping[str, Any], options: Optional[RequestOptions]) -> T:
        return _cast(parse, self._send(method, path, params, options))

    def _bytes(self, method: str, path: str, params: Mapping[str, Any], options: Optional[RequestOptions]) -> bytes:
        return self._send(method, path, params, options).content

    def _list(self, path: str, parse: Parse[T], params: Mapping[str, Any], options: Optional[RequestOptions]) -> SyncPage[T]:
        return SyncPage(self, path, parse, params, self._send("GET", path, params, options).json(), options)

    def _stream(self, path: str, params: Mapping[str, Any], options: Optional[RequestOptions]) -> Stream[CallStreamEvent]:
        return Stream(self._send("GET", path, params, options, stream=True))

    def request(self, method: str, path: str, *, params: Optional[Mapping[str, Any]] = None, options: Optional[RequestOptions] = None) -> Any:
        """Any API request with the SDK's retries (``params``: the query of a GET, the body of a POST);
        returns the parsed JSON. For operations newer than this SDK."""
        return _cast(None, self._send(method.upper(), path, params or {}, options))


class AsyncAPIClient(_BaseClient):
    """The asyncio HTTP core (``httpx.AsyncClient``)."""

    def __init__(self, api_key: str, base_url: str, max_retries: int, timeout: float, svc_version: str, http_client: Optional[httpx.AsyncClient]) -> None:
        super().__init__(api_key, base_url, max_retries, timeout, svc_version)
        self._http = http_client or httpx.AsyncClient(timeout=timeout)

    async def aclose(self) -> None:
        await self._http.aclose()

    async def _send(self, method: str, path: str, params: Mapping[str, Any], options: Optional[RequestOptions], stream: bool = False) -> httpx.Response:
        """One logical request with the SDK's retries: the 2xx answer, or raises a :class:`SvcError`."""
        args = self._prepare(method, path, params, options)
        retries = self._retries(options)
        for attempt in range(retries + 1):
            try:
                res = await self._http.send(self._http.build_request(**args), stream=stream)
                if res.is_success:
                    return res
                if stream:
                    await res.aread()
                err = _error(res)
            except httpx.TransportError as e:
                err = APIConnectionError(f"Request to {args['url']} failed: {e}", type="api_connection_error", code="connection_failed")
            if attempt >= retries or not _retryable(err):
                raise err
            await asyncio.sleep(_delay(err, attempt))
        raise AssertionError("unreachable")

    async def _request(self, method: str, path: str, parse: Optional[Parse[T]], params: Mapping[str, Any], options: Optional[RequestOptions]) -> T:
        return _cast(parse, await self._send(method, path, params, options))

    async def _bytes(self, method: str, path: str, params: Mapping[str, Any], options: Optional[RequestOptions]) -> bytes:
        return (await self._send(method, path, params, options)).content

    async def _first_page(self, path: str, parse: Parse[T], params: Mapping[str, Any], options: Optional[RequestOptions]) -> AsyncPage[T]:
        return AsyncPage(self, path, parse, params, (await self._send("GET", path, params, options)).json(), options)

    def _list(self, path: str, parse: Parse[T], params: Mapping[str, Any], options: Optional[RequestOptions]) -> AsyncPager[T]:
        return AsyncPager(self._first_page(path, parse, params, options))

    async def _stream(self, path: str, params: Mapping[str, Any], options: Optional[RequestOptions]) -> AsyncStream[CallStreamEvent]:
        return AsyncStream(await self._send("GET", path, params, options, stream=True))

    async def request(self, method: str, path: str, *, params: Optional[Mapping[str, Any]] = None, options: Optional[RequestOptions] = None) -> Any:
        """Any API request with the SDK's retries; returns the parsed JSON. For operations newer than this SDK."""
        return _cast(None, await self._send(method.upper(), path, params or {}, options))
