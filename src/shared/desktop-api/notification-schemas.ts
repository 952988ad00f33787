/** The desktop API's view of a service notification (an execution that ended, an invitation). */
import { Type, type Static } from 'typebox';
import { closed } from './payload-types';

export const serviceNotice = closed({
  id: Type.Integer(),
  kind: Type.String(),
  subject: Type.String(),
  body: Type.String(),
  /** The notification's data: for execution_ended, execution_id, status and error. */
  data: Type.Record(Type.String(), Type.Unknown()),
  created: Type.String(),
});
export type ServiceNotice = Static<typeof serviceNotice>;
