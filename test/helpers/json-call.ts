/**
 * A JSON request to a service known only by its URL (a `laneway serve` child process, a service
 * restarted on the same data): GET without a body, POST with one, a bearer token when given.
 */
export async function jsonCall<T = Record<string, unknown>>(
  url: string,
  path: string,
  token: string | null,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as T };
}
