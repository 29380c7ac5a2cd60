from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.api_error import ApiError
from ...models.codec_encode_error import CodecEncodeError
from ...models.codec_payloads import CodecPayloads
from typing import cast



def _get_kwargs(
    *,
    body: CodecPayloads,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/codec/encode",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ApiError | CodecEncodeError | CodecPayloads:
    if response.status_code == 200:
        response_200 = CodecPayloads.from_dict(response.json())



        return response_200

    if response.status_code == 401:
        response_401 = CodecEncodeError.from_dict(response.json())



        return response_401

    if response.status_code == 429:
        response_429 = CodecEncodeError.from_dict(response.json())



        return response_429

    response_default = ApiError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ApiError | CodecEncodeError | CodecPayloads]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: CodecPayloads,

) -> Response[ApiError | CodecEncodeError | CodecPayloads]:
    """ Encode Temporal payloads (codec server)

     Encrypts payloads with the current key, as workers and clients do (for `temporal workflow signal
    --codec-endpoint`). Needs the operator token `CODEC_TOKEN`, checked before the body is read; bodies
    up to 4 MB; `CODEC_RATE_LIMIT` requests per client address per minute.

    Args:
        body (CodecPayloads): Temporal payloads in proto3 JSON
            (`temporal.api.common.v1.Payloads`), as the Temporal Web UI and CLI send them to a codec
            server.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | CodecEncodeError | CodecPayloads]
     """


    kwargs = _get_kwargs(
        body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient | Client,
    body: CodecPayloads,

) -> ApiError | CodecEncodeError | CodecPayloads | None:
    """ Encode Temporal payloads (codec server)

     Encrypts payloads with the current key, as workers and clients do (for `temporal workflow signal
    --codec-endpoint`). Needs the operator token `CODEC_TOKEN`, checked before the body is read; bodies
    up to 4 MB; `CODEC_RATE_LIMIT` requests per client address per minute.

    Args:
        body (CodecPayloads): Temporal payloads in proto3 JSON
            (`temporal.api.common.v1.Payloads`), as the Temporal Web UI and CLI send them to a codec
            server.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | CodecEncodeError | CodecPayloads
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: CodecPayloads,

) -> Response[ApiError | CodecEncodeError | CodecPayloads]:
    """ Encode Temporal payloads (codec server)

     Encrypts payloads with the current key, as workers and clients do (for `temporal workflow signal
    --codec-endpoint`). Needs the operator token `CODEC_TOKEN`, checked before the body is read; bodies
    up to 4 MB; `CODEC_RATE_LIMIT` requests per client address per minute.

    Args:
        body (CodecPayloads): Temporal payloads in proto3 JSON
            (`temporal.api.common.v1.Payloads`), as the Temporal Web UI and CLI send them to a codec
            server.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | CodecEncodeError | CodecPayloads]
     """


    kwargs = _get_kwargs(
        body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: CodecPayloads,

) -> ApiError | CodecEncodeError | CodecPayloads | None:
    """ Encode Temporal payloads (codec server)

     Encrypts payloads with the current key, as workers and clients do (for `temporal workflow signal
    --codec-endpoint`). Needs the operator token `CODEC_TOKEN`, checked before the body is read; bodies
    up to 4 MB; `CODEC_RATE_LIMIT` requests per client address per minute.

    Args:
        body (CodecPayloads): Temporal payloads in proto3 JSON
            (`temporal.api.common.v1.Payloads`), as the Temporal Web UI and CLI send them to a codec
            server.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | CodecEncodeError | CodecPayloads
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
