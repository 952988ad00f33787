/** GET /api/health: liveness and version, no authentication. */
import { Type, type Static } from 'typebox';

export const HealthResponse = Type.Object({
  status: Type.Literal('ok'),
  version: Type.String(),
  /**
   * True while the service has no account, so that POST /api/setup would create the first: the
   * app's first screen then offers that, and otherwise sign-in (an administrator may have made
   * the accounts with `laneway users add`). Optional: other services of the spec leave it out.
   */
  setup_open: Type.Optional(Type.Boolean()),
});
export type HealthResponse = Static<typeof HealthResponse>;
