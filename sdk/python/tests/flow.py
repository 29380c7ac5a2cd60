"""The Python SDK's flow against a running service, as a new user runs it (test/integration/sdk.test.ts).

    python flow.py flow     SVC_BASE_URL, SVC_API_KEY, SVC_WEBHOOK_URL: agent, webhook endpoint, two test
                            calls with metadata, waiting by polling, the list across pages, the transcript,
                            a 422 caught as a typed error, the call's event stream, an agent read with AsyncSvc
    python flow.py verify   SVC_PAYLOAD, SVC_SIGNATURE, SVC_SECRET: webhooks.construct_event, a forgery, and
                            an event of a type newer than the SDK (a GenericEvent)
    python flow.py retry    SVC_BASE_URL, SVC_API_KEY, SVC_AGENT_ID: one create through a flaky server

Prints one JSON line with what it saw; exits non-zero on any unexpected error.
"""

import asyncio
import json
import os
import sys
import time

import svc_assistant
from svc_assistant import (
    API_VERSION,
    AsyncSvc,
    AuthenticationError,
    InvalidRequestError,
    NotFoundError,
    RequestOptions,
    SignatureVerificationError,
    Svc,
)

FINAL = {"completed", "transferred", "busy", "no_answer", "failed", "canceled"}


def flow() -> dict:
    svc = Svc(api_key=os.environ["SVC_API_KEY"], base_url=os.environ["SVC_BASE_URL"])
    agent = svc.agents.create(name="SDK agent", instructions="You confirm appointments.")
    endpoint = svc.webhook_endpoints.create(url=os.environ["SVC_WEBHOOK_URL"], events=["call.ended"])
    placed = [
        svc.calls.create(
            to=f"+1415555{7300 + n}",
            agent_id=agent.id,
            metadata={"sdk": "python", "n": str(n)},
            simulation={"caller": ["Hi, is my appointment at ten?", "Thanks, bye."]},
        )
        for n in (1, 2)
    ]
    deadline = time.time() + 180
    ended = []
    for call in placed:
        while True:
            current = svc.calls.retrieve(call.id)
            if current.status in FINAL:
                ended.append(current)
                break
            if time.time() > deadline:
                raise TimeoutError(f"call {call.id} still {current.status}")
            time.sleep(0.25)
    first = svc.calls.list(limit=1)
    paged = [c.id for c in svc.calls.list(limit=1)]
    transcript = svc.calls.transcript(placed[0].id)
    with svc.calls.stream(placed[0].id) as stream:
        streamed = [e.event for e in stream]
    try:
        svc.messages.send(channel="whatsapp", to="+14155557399", text="Hello out of the blue")
        error = None
    except InvalidRequestError as e:
        error = {"class": type(e).__name__, "status": e.status_code, "code": e.code}

    # Per-request options override the client's key; a wrong key alone is a typed 401; `from_` is `from`.
    bogus = Svc(api_key="svc_sk_test_not_a_key", base_url=os.environ["SVC_BASE_URL"])
    options: RequestOptions = {"api_key": os.environ["SVC_API_KEY"], "svc_version": API_VERSION, "timeout": 20.0}
    overridden = bogus.agents.retrieve(agent.id, options=options).id == agent.id
    try:
        bogus.agents.retrieve(agent.id)
        unauthenticated = None
    except AuthenticationError as e:
        unauthenticated = e.status_code
    try:
        svc.calls.retrieve("call_0000000000000000000000missing")
        missing = None
    except NotFoundError as e:
        missing = {"code": e.code, "has_request_id": bool(e.request_id)}
    from_filtered = [c.id for c in svc.calls.list(from_="+14155559876")]

    async def read_async() -> str:
        async with AsyncSvc(api_key=os.environ["SVC_API_KEY"], base_url=os.environ["SVC_BASE_URL"]) as a:
            updated = await a.agents.update(agent.id, name="SDK agent (async)")
            page = await a.agents.list(limit=10)
            names = [x.name async for x in page]
            assert updated.name in names
            return updated.name

    return {
        "call_ids": [c.id for c in placed],
        "statuses": [c.status for c in ended],
        "metadata": ended[0].metadata,
        "first_page": {"count": len(first.data), "has_more": first.has_more},
        "paged_ids": paged,
        "streamed": streamed,
        "options_override": overridden,
        "unauthenticated": unauthenticated,
        "missing": missing,
        "from_filtered": from_filtered,
        "transcript_has_line": "Hi, is my appointment at ten?" in transcript.model_dump_json(),
        "error": error,
        "webhook_secret": endpoint.secret,
        "async_agent_name": asyncio.run(read_async()),
        "event_models": sorted({type(e).__name__ for e in svc.events.list(limit=10).data}),
    }


def verify() -> dict:
    payload, header, secret = os.environ["SVC_PAYLOAD"], os.environ["SVC_SIGNATURE"], os.environ["SVC_SECRET"]
    event = svc_assistant.webhooks.construct_event(payload, header, secret)
    forged = svc_assistant.webhooks.signature_header(payload, "whsec_not_the_secret")
    try:
        svc_assistant.webhooks.construct_event(payload, forged, secret)
        refused = False
    except SignatureVerificationError:
        refused = True
    newer = json.dumps({"id": "evt_newer", "object": "event", "type": "call.teleported", "data": {"object": {}}})
    generic = svc_assistant.webhooks.construct_event(newer, svc_assistant.webhooks.signature_header(newer, secret), secret)
    return {
        "type": event.type,
        "id": event.id,
        "model": type(event).__name__,
        "forged_refused": refused,
        "newer_type": [type(generic).__name__, generic.type],
    }


def retry() -> dict:
    svc = Svc(api_key=os.environ["SVC_API_KEY"], base_url=os.environ["SVC_BASE_URL"], max_retries=3)
    call = svc.calls.create(to="+14155557401", agent_id=os.environ["SVC_AGENT_ID"], metadata={"sdk": "retry"})
    return {"call_id": call.id}


if __name__ == "__main__":
    print(json.dumps({"flow": flow, "verify": verify, "retry": retry}[sys.argv[1]]()))
