from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.api_error import ApiError
from ...models.recording_audio_error import RecordingAudioError
from typing import cast



def _get_kwargs(
    id: str,
    *,
    expires: int,
    signature: str,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["expires"] = expires

    params["signature"] = signature


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/recordings/{id}/audio".format(id=quote(str(id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ApiError | RecordingAudioError:
    if response.status_code == 403:
        response_403 = RecordingAudioError.from_dict(response.json())



        return response_403

    if response.status_code == 503:
        response_503 = RecordingAudioError.from_dict(response.json())



        return response_503

    response_default = ApiError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ApiError | RecordingAudioError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    expires: int,
    signature: str,

) -> Response[ApiError | RecordingAudioError]:
    """ A recording's audio (signed link)

     The `url` of a recording: no API key; 10 minutes from its issue, then 403. Serves `Range` requests
    (206, `Accept-Ranges: bytes`), so players can seek.

    Args:
        id (str):
        expires (int):
        signature (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | RecordingAudioError]
     """


    kwargs = _get_kwargs(
        id=id,
expires=expires,
signature=signature,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    expires: int,
    signature: str,

) -> ApiError | RecordingAudioError | None:
    """ A recording's audio (signed link)

     The `url` of a recording: no API key; 10 minutes from its issue, then 403. Serves `Range` requests
    (206, `Accept-Ranges: bytes`), so players can seek.

    Args:
        id (str):
        expires (int):
        signature (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | RecordingAudioError
     """


    return sync_detailed(
        id=id,
client=client,
expires=expires,
signature=signature,

    ).parsed

async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    expires: int,
    signature: str,

) -> Response[ApiError | RecordingAudioError]:
    """ A recording's audio (signed link)

     The `url` of a recording: no API key; 10 minutes from its issue, then 403. Serves `Range` requests
    (206, `Accept-Ranges: bytes`), so players can seek.

    Args:
        id (str):
        expires (int):
        signature (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | RecordingAudioError]
     """


    kwargs = _get_kwargs(
        id=id,
expires=expires,
signature=signature,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    expires: int,
    signature: str,

) -> ApiError | RecordingAudioError | None:
    """ A recording's audio (signed link)

     The `url` of a recording: no API key; 10 minutes from its issue, then 403. Serves `Range` requests
    (206, `Accept-Ranges: bytes`), so players can seek.

    Args:
        id (str):
        expires (int):
        signature (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | RecordingAudioError
     """


    return (await asyncio_detailed(
        id=id,
client=client,
expires=expires,
signature=signature,

    )).parsed
