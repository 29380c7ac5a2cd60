from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.api_error import ApiError
from ...models.codec_encode_with_path_token_error import CodecEncodeWithPathTokenError
from ...models.codec_payloads import CodecPayloads
from typing import cast



def _get_kwargs(
    token: str,
    *,
    body: CodecPayloads,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/codec/{token}/encode".format(token=quote(str(token), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ApiError | CodecEncodeWithPathTokenError | CodecPayloads:
    if response.status_code == 200:
        response_200 = CodecPayloads.from_dict(response.json())



        return response_200

    if response.status_code == 401:
        response_401 = CodecEncodeWithPathTokenError.from_dict(response.json())



        return response_401

    if response.status_code == 429:
        response_429 = CodecEncodeWithPathTokenError.from_dict(response.json())



        return response_429

    response_default = ApiError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ApiError | CodecEncodeWithPathTokenError | CodecPayloads]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    token: str,
    *,
    client: AuthenticatedClient | Client,
    body: CodecPayloads,

) -> Response[ApiError | CodecEncodeWithPathTokenError | CodecPayloads]:
    """ Encode Temporal payloads (codec server)

     Encrypts payloads with the current key, as workers and clients do (for `temporal workflow signal
    --codec-endpoint`). Needs the operator token `CODEC_TOKEN`, checked before the body is read; bodies
    up to 4 MB; `CODEC_RATE_LIMIT` requests per client address per minute.

    Args:
        token (str):
        body (CodecPayloads): Temporal payloads in proto3 JSON
            (`temporal.api.common.v1.Payloads`), as the Temporal Web UI and CLI send them to a codec
            server.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | CodecEncodeWithPathTokenError | CodecPayloads]
     """


    kwargs = _get_kwargs(
        token=token,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    token: str,
    *,
    client: AuthenticatedClient | Client,
    body: CodecPayloads,

) -> ApiError | CodecEncodeWithPathTokenError | CodecPayloads | None:
    """ Encode Temporal payloads (codec server)

     Encrypts payloads with the current key, as workers and clients do (for `temporal workflow signal
    --codec-endpoint`). Needs the operator token `CODEC_TOKEN`, checked before the body is read; bodies
    up to 4 MB; `CODEC_RATE_LIMIT` requests per client address per minute.

    Args:
        token (str):
        body (CodecPayloads): Temporal payloads in proto3 JSON
            (`temporal.api.common.v1.Payloads`), as the Temporal Web UI and CLI send them to a codec
            server.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | CodecEncodeWithPathTokenError | CodecPayloads
     """


    return sync_detailed(
        token=token,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    token: str,
    *,
    client: AuthenticatedClient | Client,
    body: CodecPayloads,

) -> Response[ApiError | CodecEncodeWithPathTokenError | CodecPayloads]:
    """ Encode Temporal payloads (codec server)

     Encrypts payloads with the current key, as workers and clients do (for `temporal workflow signal
    --codec-endpoint`). Needs the operator token `CODEC_TOKEN`, checked before the body is read; bodies
    up to 4 MB; `CODEC_RATE_LIMIT` requests per client address per minute.

    Args:
        token (str):
        body (CodecPayloads): Temporal payloads in proto3 JSON
            (`temporal.api.common.v1.Payloads`), as the Temporal Web UI and CLI send them to a codec
            server.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | CodecEncodeWithPathTokenError | CodecPayloads]
     """


    kwargs = _get_kwargs(
        token=token,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    token: str,
    *,
    client: AuthenticatedClient | Client,
    body: CodecPayloads,

) -> ApiError | CodecEncodeWithPathTokenError | CodecPayloads | None:
    """ Encode Temporal payloads (codec server)

     Encrypts payloads with the current key, as workers and clients do (for `temporal workflow signal
    --codec-endpoint`). Needs the operator token `CODEC_TOKEN`, checked before the body is read; bodies
    up to 4 MB; `CODEC_RATE_LIMIT` requests per client address per minute.

    Args:
        token (str):
        body (CodecPayloads): Temporal payloads in proto3 JSON
            (`temporal.api.common.v1.Payloads`), as the Temporal Web UI and CLI send them to a codec
            server.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | CodecEncodeWithPathTokenError | CodecPayloads
     """


    return (await asyncio_detailed(
        token=token,
client=client,
body=body,

    )).parsed
