from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.api_error import ApiError
from ...models.erase_contact_body import EraseContactBody
from ...models.erase_contact_error import EraseContactError
from ...models.erasure import Erasure
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    body: EraseContactBody,
    idempotency_key: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/contacts/erase",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ApiError | EraseContactError | Erasure:
    if response.status_code == 200:
        response_200 = Erasure.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = EraseContactError.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = EraseContactError.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = EraseContactError.from_dict(response.json())



        return response_403

    if response.status_code == 409:
        response_409 = EraseContactError.from_dict(response.json())



        return response_409

    if response.status_code == 413:
        response_413 = EraseContactError.from_dict(response.json())



        return response_413

    if response.status_code == 415:
        response_415 = EraseContactError.from_dict(response.json())



        return response_415

    if response.status_code == 422:
        response_422 = EraseContactError.from_dict(response.json())



        return response_422

    if response.status_code == 429:
        response_429 = EraseContactError.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = EraseContactError.from_dict(response.json())



        return response_503

    response_default = ApiError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ApiError | EraseContactError | Erasure]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: EraseContactBody,
    idempotency_key: str | Unset = UNSET,

) -> Response[ApiError | EraseContactError | Erasure]:
    """ Erase a person by phone or external id

     Removes or irreversibly redacts every copy of the person: contact, records, calls and transcripts,
    conversations, recordings, analyses, campaign rows, event payloads, idempotency caches. Answers the
    `erasure` at once; follow it with `GET /v1/erasures/{id}`. Needs the `contacts:write` scope.

    Args:
        idempotency_key (str | Unset):
        body (EraseContactBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | EraseContactError | Erasure]
     """


    kwargs = _get_kwargs(
        body=body,
idempotency_key=idempotency_key,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    body: EraseContactBody,
    idempotency_key: str | Unset = UNSET,

) -> ApiError | EraseContactError | Erasure | None:
    """ Erase a person by phone or external id

     Removes or irreversibly redacts every copy of the person: contact, records, calls and transcripts,
    conversations, recordings, analyses, campaign rows, event payloads, idempotency caches. Answers the
    `erasure` at once; follow it with `GET /v1/erasures/{id}`. Needs the `contacts:write` scope.

    Args:
        idempotency_key (str | Unset):
        body (EraseContactBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | EraseContactError | Erasure
     """


    return sync_detailed(
        client=client,
body=body,
idempotency_key=idempotency_key,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: EraseContactBody,
    idempotency_key: str | Unset = UNSET,

) -> Response[ApiError | EraseContactError | Erasure]:
    """ Erase a person by phone or external id

     Removes or irreversibly redacts every copy of the person: contact, records, calls and transcripts,
    conversations, recordings, analyses, campaign rows, event payloads, idempotency caches. Answers the
    `erasure` at once; follow it with `GET /v1/erasures/{id}`. Needs the `contacts:write` scope.

    Args:
        idempotency_key (str | Unset):
        body (EraseContactBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | EraseContactError | Erasure]
     """


    kwargs = _get_kwargs(
        body=body,
idempotency_key=idempotency_key,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    body: EraseContactBody,
    idempotency_key: str | Unset = UNSET,

) -> ApiError | EraseContactError | Erasure | None:
    """ Erase a person by phone or external id

     Removes or irreversibly redacts every copy of the person: contact, records, calls and transcripts,
    conversations, recordings, analyses, campaign rows, event payloads, idempotency caches. Answers the
    `erasure` at once; follow it with `GET /v1/erasures/{id}`. Needs the `contacts:write` scope.

    Args:
        idempotency_key (str | Unset):
        body (EraseContactBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | EraseContactError | Erasure
     """


    return (await asyncio_detailed(
        client=client,
body=body,
idempotency_key=idempotency_key,

    )).parsed
