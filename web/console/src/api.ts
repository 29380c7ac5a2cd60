/**
 * The console's one door to the server (issue 35): same-origin `fetch` with the session cookie, the
 * session's CSRF token on every non-GET request (`X-CSRF-Token`), errors turned into `ApiError` carrying
 * the API's `{"error":{type,code,message,param}}` so pages show `message` as it is.
 */

/** An error answer of the API (or a network failure, status 0). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly param?: string,
  ) {
    super(message);
  }
}

let csrfToken = '';
let onSignedOut: () => void = () => {};

/** Sets the token sent as `X-CSRF-Token` (from the session object). */
export function setCsrfToken(token: string): void {
  csrfToken = token;
}

/** What to do when a request answers 401 (the session expired or ended elsewhere). */
export function onUnauthorized(handler: () => void): void {
  onSignedOut = handler;
}

/** A list page of the API (`GET /v1/...` lists). */
export interface ListPage<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
}

/** Query string from an object, leaving out empty values. */
export function qs(params: Record<string, string | number | undefined | null>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

/**
 * Sends one request and returns the parsed JSON answer.
 * @throws ApiError with the API's message (401 also calls the `onUnauthorized` handler unless `quiet401`)
 */
export async function api<T>(
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: unknown,
  opts: { quiet401?: boolean; accept?: string } = {},
): Promise<T> {
  const headers: Record<string, string> = { Accept: opts.accept ?? 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET') headers['X-CSRF-Token'] = csrfToken;
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'network_error', 'The server cannot be reached. Check your connection and try again.');
  }
  if (opts.accept && opts.accept !== 'application/json' && res.ok) return (await res.text()) as T;
  const text = await res.text();
  let json: unknown = null;
  try {
    if (text) json = JSON.parse(text);
  } catch {
    // not JSON: the status alone tells
  }
  if (!res.ok) {
    const err = (json as { error?: { code?: string; message?: string; param?: string } } | null)?.error;
    if (res.status === 401 && !opts.quiet401) onSignedOut();
    throw new ApiError(
      res.status,
      err?.code ?? 'http_error',
      err?.message ?? `The server answered ${res.status}.`,
      err?.param,
    );
  }
  return json as T;
}

/** Every page of a list (following `starting_after`), up to `max` items. */
export async function listAll<T extends { id: string }>(path: string, max = 1000): Promise<T[]> {
  const out: T[] = [];
  let after: string | undefined;
  const sep = path.includes('?') ? '&' : '?';
  for (;;) {
    const page = await api<ListPage<T>>(
      'GET',
      `${path}${sep}limit=100${after ? `&starting_after=${encodeURIComponent(after)}` : ''}`,
    );
    out.push(...page.data);
    if (!page.has_more || page.data.length === 0 || out.length >= max) return out;
    after = page.data[page.data.length - 1]!.id;
  }
}
