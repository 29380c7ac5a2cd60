from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.api_error import ApiError
from ...models.create_widget_session_body import CreateWidgetSessionBody
from ...models.create_widget_session_error import CreateWidgetSessionError
from ...models.widget_session import WidgetSession
from typing import cast



def _get_kwargs(
    *,
    body: CreateWidgetSessionBody,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/widget/session",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ApiError | CreateWidgetSessionError | WidgetSession:
    if response.status_code == 200:
        response_200 = WidgetSession.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = CreateWidgetSessionError.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = CreateWidgetSessionError.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = CreateWidgetSessionError.from_dict(response.json())



        return response_403

    if response.status_code == 413:
        response_413 = CreateWidgetSessionError.from_dict(response.json())



        return response_413

    if response.status_code == 415:
        response_415 = CreateWidgetSessionError.from_dict(response.json())



        return response_415

    if response.status_code == 429:
        response_429 = CreateWidgetSessionError.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = CreateWidgetSessionError.from_dict(response.json())



        return response_503

    response_default = ApiError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ApiError | CreateWidgetSessionError | WidgetSession]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateWidgetSessionBody,

) -> Response[ApiError | CreateWidgetSessionError | WidgetSession]:
    """ Open a widget session

     With a publishable key, from the organization's allowed origins. `identity.user_hash` is the
    lowercase hex HMAC-SHA256 of `identity.user_id` under the organization's widget identity secret
    (`svcctl widget configure`); a verified user continues the same conversation in every browser.

    Args:
        body (CreateWidgetSessionBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | CreateWidgetSessionError | WidgetSession]
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
    client: AuthenticatedClient,
    body: CreateWidgetSessionBody,

) -> ApiError | CreateWidgetSessionError | WidgetSession | None:
    """ Open a widget session

     With a publishable key, from the organization's allowed origins. `identity.user_hash` is the
    lowercase hex HMAC-SHA256 of `identity.user_id` under the organization's widget identity secret
    (`svcctl widget configure`); a verified user continues the same conversation in every browser.

    Args:
        body (CreateWidgetSessionBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | CreateWidgetSessionError | WidgetSession
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateWidgetSessionBody,

) -> Response[ApiError | CreateWidgetSessionError | WidgetSession]:
    """ Open a widget session

     With a publishable key, from the organization's allowed origins. `identity.user_hash` is the
    lowercase hex HMAC-SHA256 of `identity.user_id` under the organization's widget identity secret
    (`svcctl widget configure`); a verified user continues the same conversation in every browser.

    Args:
        body (CreateWidgetSessionBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiError | CreateWidgetSessionError | WidgetSession]
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
    client: AuthenticatedClient,
    body: CreateWidgetSessionBody,

) -> ApiError | CreateWidgetSessionError | WidgetSession | None:
    """ Open a widget session

     With a publishable key, from the organization's allowed origins. `identity.user_hash` is the
    lowercase hex HMAC-SHA256 of `identity.user_id` under the organization's widget identity secret
    (`svcctl widget configure`); a verified user continues the same conversation in every browser.

    Args:
        body (CreateWidgetSessionBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiError | CreateWidgetSessionError | WidgetSession
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
