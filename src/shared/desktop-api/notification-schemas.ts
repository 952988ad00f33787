/** The desktop API's view of a service notification (an execution that ended, an invitation). */
import { s, type Infer } from '../schema';

export const serviceNotice = s.object({
  id: s.number({ int: true }),
  kind: s.string(),
  subject: s.string(),
  body: s.string(),
  /** The notification's data: for execution_ended, execution_id, status and error. */
  data: s.record(s.unknown()),
  created: s.string(),
});
export type ServiceNotice = Infer<typeof serviceNotice>;
