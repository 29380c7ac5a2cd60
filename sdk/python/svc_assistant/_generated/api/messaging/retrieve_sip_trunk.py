from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.api_error import ApiError
from ...models.retrieve_sip_trunk_error import RetrieveSipTrunkError
from ...models.sip_trunk import SipTrunk
from typing import cast



def _get_kwargs(
    id: str,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/sip_trunks/{id}".format(id=quote(str(id), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ApiError | RetrieveSipTrunkError | SipTrunk:
    if response.status_code == 200:
        response_200 = SipTrunk.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = RetrieveSipTrunkError.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = RetrieveSipTrunkError.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = RetrieveSipTrunkError.from_dict(response.json())



        return response_403

    if response.status_code == 404:
        response_404 = RetrieveSipTrunkError.from_dict(response.json())



        return response_404

    if response.status_code == 429:
        response_429 = RetrieveSipTrunkError.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = RetrieveSipTrunkError.from_dict(response.json())



        return response_503

    response_default = ApiError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ApiError | RetrieveSipTrunkError | SipTrunk]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    *,
    client: AuthenticatedClient,

) -> Response[ApiError | RetrieveSipTrunkError | SipTrunk]:
    """ Retrieve a SIP trunk

     Retrieve a SIP trunk. Needs the `phone_numbers:read` scope.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | RetrieveSipTrunkError | SipTrunk]
     """


    kwargs = _get_kwargs(
        id=id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: str,
    *,
    client: AuthenticatedClient,

) -> ApiError | RetrieveSipTrunkError | SipTrunk | None:
    """ Retrieve a SIP trunk

     Retrieve a SIP trunk. Needs the `phone_numbers:read` scope.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | RetrieveSipTrunkError | SipTrunk
     """


    return sync_detailed(
        id=id,
client=client,

    ).parsed

async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,

) -> Response[ApiError | RetrieveSipTrunkError | SipTrunk]:
    """ Retrieve a SIP trunk

     Retrieve a SIP trunk. Needs the `phone_numbers:read` scope.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | RetrieveSipTrunkError | SipTrunk]
     """


    kwargs = _get_kwargs(
        id=id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,

) -> ApiError | RetrieveSipTrunkError | SipTrunk | None:
    """ Retrieve a SIP trunk

     Retrieve a SIP trunk. Needs the `phone_numbers:read` scope.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | RetrieveSipTrunkError | SipTrunk
     """


    return (await asyncio_detailed(
        id=id,
client=client,

    )).parsed
