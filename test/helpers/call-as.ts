/**
 * Calls the test service through the same endpoint descriptors the app's clients use
 * (src/shared/service-api/endpoints), as one user: the path, params, query and body are typed by
 * the descriptor and so is the answer, so a test's expectations follow the schemas instead of a
 * shape written again in the test.
 *
 *   const lane = await okAs(service, alice, getLanesById, { params: { id } });
 *   const refused = await callAs(service, bob, getLanesById, { params: { id } });
 *   expect(refused).toMatchObject({ ok: false, status: 404 });
 */
import type { CallRest, Endpoint, ResponseOf } from '../../src/shared/service-api/endpoint';
import { ServiceHttp, type EndpointAnswer, type FetchLike } from '../../src/shared/service-client/service-http';

/** Who calls: a signed-in user's access token, or nobody (null: no Authorization header). */
export type Caller = { token: string } | null;

interface Target {
  url: string;
}

const platformFetch: FetchLike<Blob, AbortSignal, Response> = (url, init) => fetch(url, init);

function clientFor(service: Target, caller: Caller): ServiceHttp<Blob, AbortSignal, Response> {
  // A test sees the 401 itself: the token is not renewed behind its back.
  const token = caller?.token ?? null;
  return new ServiceHttp({
    baseUrl: service.url,
    fetch: platformFetch,
    auth: token ? { token: async () => token } : null,
  });
}

/** Calls `endpoint` as `caller`; answers any status, the body typed by the descriptor when 2xx. */
export function callAs<E extends Endpoint>(
  service: Target,
  caller: Caller,
  endpoint: E,
  ...args: CallRest<E, { headers?: Record<string, string> }>
): Promise<EndpointAnswer<E, Response['headers']>> {
  return clientFor(service, caller).answer(endpoint, ...(args as CallRest<E>)) as Promise<
    EndpointAnswer<E, Response['headers']>
  >;
}

/** Calls `endpoint` as `caller` and answers its typed body; a status other than 2xx throws the ServiceError. */
export function okAs<E extends Endpoint>(
  service: Target,
  caller: Caller,
  endpoint: E,
  ...args: CallRest<E, { headers?: Record<string, string> }>
): Promise<ResponseOf<E>> {
  return clientFor(service, caller).call(endpoint, ...(args as CallRest<E>));
}
