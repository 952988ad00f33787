/**
 * The flood of the sign-in-flood benchmark, as a process of its own (`node --import tsx
 * login-flooder.ts <url> <in-flight>`): `in-flight` logins with new made-up usernames in flight
 * at all times, so that the benchmark's measuring client has an event loop to itself and what
 * it measures is the service. Prints `{"flooding":n}` once the first answers are in; on SIGTERM
 * it stops, waits for the logins in flight, and prints `{"attempts":n,"statuses":{...}}`. It exits
 * at once when its stdin reaches its end, which it does when the benchmark ends however it ends,
 * so no flood outlives it.
 */
import { randomBytes } from 'node:crypto';
import { Agent } from 'undici';

const [url, inFlight] = process.argv.slice(2) as [string, string];
const agent = new Agent({ connections: 2 * Number(inFlight) });
let flooding = true;
let attempts = 0;
let announced = false;
const statuses: Record<number, number> = {};

async function flooder(): Promise<void> {
  while (flooding) {
    const res = await fetch(`${url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: `nobody-${randomBytes(6).toString('hex')}`, password: 'guess' }),
      dispatcher: agent,
    } as RequestInit);
    await res.arrayBuffer();
    attempts++;
    statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    if (!announced && attempts >= 2 * Number(inFlight)) {
      announced = true;
      console.log(JSON.stringify({ flooding: attempts }));
    }
  }
}

const flood = Array.from({ length: Number(inFlight) }, flooder);
let stopping = false;
function stop(): void {
  if (stopping) return;
  stopping = true;
  flooding = false;
  void Promise.all(flood)
    .then(() => agent.close())
    .then(() => {
      console.log(JSON.stringify({ attempts, statuses }));
      process.exit(0);
    });
}
process.once('SIGTERM', stop);
// The benchmark is gone (its end of the pipe closed): nobody waits for the tally.
process.stdin.on('end', () => process.exit(0)).resume();
