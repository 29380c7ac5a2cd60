"""The resources of :class:`~svc_assistant.Svc` and :class:`~svc_assistant.AsyncSvc`, in Stripe's shape.

One class per resource serves both clients: a method returns the generated model (``Call``, ``Agent``…) on
``Svc`` and an awaitable of it on ``AsyncSvc``; ``list()`` returns a :class:`~svc_assistant.Page` (an
awaitable of an :class:`~svc_assistant.AsyncPage`). Create parameters are the API's JSON fields as keyword
arguments (``svc.calls.create(to="+14155550123", agent_id=agent.id, metadata={"order": "42"})``); each
method's docstring names the operation of the API reference (``GET /docs``) it calls.
"""

from __future__ import annotations

import inspect
from typing import Any, Dict, Optional
from urllib.parse import quote

from ._client import _model


def _seg(value: str) -> str:
    return quote(str(value), safe="")


class _Resource:
    _path = ""
    _model: Optional[str] = None

    def __init__(self, client: Any) -> None:
        self._c = client

    def _call(self, method: str, path: str, model: Optional[str], **kw: Any) -> Any:
        res = self._c.request(method, path, **kw)
        if inspect.isawaitable(res):

            async def convert() -> Any:
                return _model(model, await res)

            return convert()
        return _model(model, res)

    def _page(self, path: str, query: Dict[str, Any], model: Optional[str]) -> Any:
        return self._c._list(path, {k: v for k, v in query.items() if v is not None}, model)

    # The operations most resources share, on `_path` and `_model`.
    def _create(self, params: Dict[str, Any], idempotency_key: Optional[str]) -> Any:
        return self._call("POST", self._path, self._model, body=params, idempotency_key=idempotency_key)

    def retrieve(self, id: str) -> Any:
        """``GET {path}/{id}``: the object, or :class:`~svc_assistant.errors.InvalidRequestError` 404."""
        return self._call("GET", f"{self._path}/{_seg(id)}", self._model)

    def list(self, **query: Any) -> Any:
        """``GET {path}``: one page (``limit``, ``starting_after``, ``ending_before`` and the filters)."""
        return self._page(self._path, query, self._model)


class Calls(_Resource):
    _path, _model = "/v1/calls", "Call"

    def create(self, *, idempotency_key: Optional[str] = None, **params: Any) -> Any:
        """``POST /v1/calls`` (createCall): places a call; a test key simulates it (``simulation=``)."""
        return self._create(params, idempotency_key)

    def transcript(self, id: str) -> Any:
        """``GET /v1/calls/{id}/transcript`` (retrieveCallTranscript)."""
        return self._call("GET", f"/v1/calls/{_seg(id)}/transcript", "Transcript")

    def end(self, id: str, **params: Any) -> Any:
        """``POST /v1/calls/{id}/end`` (endCall)."""
        return self._call("POST", f"/v1/calls/{_seg(id)}/end", "Call", body=params)

    def transfer(self, id: str, **params: Any) -> Any:
        """``POST /v1/calls/{id}/transfer`` (transferCall)."""
        return self._call("POST", f"/v1/calls/{_seg(id)}/transfer", "Call", body=params)

    def say(self, id: str, **params: Any) -> Any:
        """``POST /v1/calls/{id}/say`` (sayOnCall)."""
        return self._call("POST", f"/v1/calls/{_seg(id)}/say", "CallSay", body=params)


class Agents(_Resource):
    _path, _model = "/v1/agents", "Agent"

    def create(self, *, idempotency_key: Optional[str] = None, **params: Any) -> Any:
        """``POST /v1/agents`` (createAgent)."""
        return self._create(params, idempotency_key)

    def update(self, id: str, **params: Any) -> Any:
        """``POST /v1/agents/{id}`` (updateAgent)."""
        return self._call("POST", f"/v1/agents/{_seg(id)}", "Agent", body=params)

    def delete(self, id: str) -> Any:
        """``DELETE /v1/agents/{id}`` (deleteAgent)."""
        return self._call("DELETE", f"/v1/agents/{_seg(id)}", "Deleted")


class Tools(_Resource):
    _path, _model = "/v1/tools", "Tool"

    def create(self, *, idempotency_key: Optional[str] = None, **params: Any) -> Any:
        """``POST /v1/tools`` (createTool)."""
        return self._create(params, idempotency_key)


class Messages(_Resource):
    _path, _model = "/v1/messages", "Message"

    def create(self, *, idempotency_key: Optional[str] = None, **params: Any) -> Any:
        """``POST /v1/messages`` (sendMessage): e.g. 422 ``whatsapp_window_closed`` outside the 24-hour window."""
        return self._create(params, idempotency_key)

    def list(self, **query: Any) -> Any:  # noqa: A003 - no list operation on messages
        raise NotImplementedError("messages are listed per conversation: conversations.list_messages(id)")


class Conversations(_Resource):
    _path, _model = "/v1/conversations", "Conversation"

    def list_messages(self, id: str, **query: Any) -> Any:
        """``GET /v1/conversations/{id}/messages`` (listConversationMessages)."""
        return self._page(f"/v1/conversations/{_seg(id)}/messages", query, "Message")

    def resume(self, id: str) -> Any:
        """``POST /v1/conversations/{id}/resume`` (resumeConversation)."""
        return self._call("POST", f"/v1/conversations/{_seg(id)}/resume", "Conversation", body={})


class Contacts(_Resource):
    _path, _model = "/v1/contacts", "Contact"

    def create(self, *, idempotency_key: Optional[str] = None, **params: Any) -> Any:
        """``POST /v1/contacts`` (createContact)."""
        return self._create(params, idempotency_key)

    def delete(self, id: str) -> Any:
        """``DELETE /v1/contacts/{id}`` (deleteContact)."""
        return self._call("DELETE", f"/v1/contacts/{_seg(id)}", "Deleted")

    def list_records(self, id: str, **query: Any) -> Any:
        """``GET /v1/contacts/{id}/records`` (listContactRecords)."""
        return self._page(f"/v1/contacts/{_seg(id)}/records", query, "Record")


class Records(_Resource):
    _path, _model = "/v1/records", None

    def upsert(self, **params: Any) -> Any:
        """``POST /v1/records`` (upsertRecords)."""
        return self._call("POST", "/v1/records", None, body=params)


class Knowledge(_Resource):
    _path, _model = "/v1/knowledge", "KnowledgeDocument"

    def create(self, *, idempotency_key: Optional[str] = None, **params: Any) -> Any:
        """``POST /v1/knowledge`` (createKnowledgeDocument)."""
        return self._create(params, idempotency_key)

    def search(self, **query: Any) -> Any:
        """``GET /v1/knowledge/search`` (searchKnowledge): one page of chunks."""
        return self._page("/v1/knowledge/search", query, "KnowledgeChunk")


class BulkCalls(_Resource):
    _path, _model = "/v1/bulk-calls", "BulkCall"

    def create(self, *, idempotency_key: Optional[str] = None, **params: Any) -> Any:
        """``POST /v1/bulk-calls`` (createBulkCall)."""
        return self._create(params, idempotency_key)

    def cancel(self, id: str) -> Any:
        """``POST /v1/bulk-calls/{id}/cancel`` (cancelBulkCall)."""
        return self._call("POST", f"/v1/bulk-calls/{_seg(id)}/cancel", "BulkCall", body={})


class WebhookEndpoints(_Resource):
    _path, _model = "/v1/webhook-endpoints", "WebhookEndpoint"

    def create(self, *, idempotency_key: Optional[str] = None, **params: Any) -> Any:
        """``POST /v1/webhook-endpoints`` (createWebhookEndpoint): the answer alone shows the ``secret``."""
        return self._create(params, idempotency_key)

    def delete(self, id: str) -> Any:
        """``DELETE /v1/webhook-endpoints/{id}`` (deleteWebhookEndpoint)."""
        return self._call("DELETE", f"/v1/webhook-endpoints/{_seg(id)}", "Deleted")


class Events(_Resource):
    _path, _model = "/v1/events", "Event"


class Usage(_Resource):
    _path, _model = "/v1/usage", "Usage"

    def retrieve(self, **query: Any) -> Any:  # type: ignore[override]
        """``GET /v1/usage`` (retrieveUsage): ``from_``/``to`` dates as ``{"from": …, "to": …}`` query."""
        return self._call("GET", "/v1/usage", "Usage", query=query)


class Account(_Resource):
    _path, _model = "/v1/account", "Account"

    def retrieve(self) -> Any:  # type: ignore[override]
        """``GET /v1/account`` (retrieveAccount)."""
        return self._call("GET", "/v1/account", "Account")


class TestHelpers(_Resource):
    __test__ = False  # not a pytest class

    def inbound_message(self, **params: Any) -> Any:
        """``POST /v1/test_helpers/inbound_messages`` (simulateInboundMessage)."""
        return self._call("POST", "/v1/test_helpers/inbound_messages", None, body=params)


def resources(client: Any) -> Dict[str, _Resource]:
    """The resources a client carries, by attribute name."""
    return {
        "calls": Calls(client),
        "agents": Agents(client),
        "tools": Tools(client),
        "messages": Messages(client),
        "conversations": Conversations(client),
        "contacts": Contacts(client),
        "records": Records(client),
        "knowledge": Knowledge(client),
        "bulk_calls": BulkCalls(client),
        "webhook_endpoints": WebhookEndpoints(client),
        "events": Events(client),
        "usage": Usage(client),
        "account": Account(client),
        "test_helpers": TestHelpers(client),
    }
