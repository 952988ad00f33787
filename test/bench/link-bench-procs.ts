/**
 * The reference side of the long-link benchmark: `raw-sink` (a TCP server that reads a given
 * number of bytes and answers one line) and `raw-send` (one TCP stream writing a file, repeated to a byte count, to it and
 * waiting for that line). Each runs in its own process, as the queue and the service do, and
 * prints one JSON line.
 */
import { createReadStream, statSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { pipeline } from 'node:stream/promises';
import { peakRssBytes } from '../../src/service/engines/self-usage';

const [mode, ...args] = process.argv.slice(2);
// This process's own peak (maxRSS would keep the bench runner's, from before the exec).
const peakRssMb = () => peakRssBytes() / (1024 * 1024);

if (mode === 'raw-sink') {
  const server = createServer((socket) => {
    let got = 0;
    const expected = Number(args[0]);
    socket.on('data', (b: Buffer) => {
      got += b.length;
      if (got >= expected) socket.end('ok\n');
    });
    socket.on('error', () => socket.destroy());
  });
  server.listen(0, '127.0.0.1', () => {
    console.log(JSON.stringify({ port: (server.address() as { port: number }).port }));
  });
  process.once('SIGTERM', () => server.close(() => process.exit(0)));
} else if (mode === 'raw-send') {
  const [port, path, total] = args as [string, string, string];
  const size = statSync(path).size;
  const t0 = process.hrtime.bigint();
  const socket = connect({ port: Number(port), host: '127.0.0.1', allowHalfOpen: true });
  const answered = new Promise<void>((resolve, reject) => {
    socket.once('data', () => resolve());
    socket.once('error', reject);
  });
  // The file again and again until `total` bytes went: the same bytes as the queue's row.
  for (let sent = 0; sent < Number(total); sent += size) {
    const end = Math.min(size, Number(total) - sent) - 1;
    await pipeline(createReadStream(path, { highWaterMark: 1024 * 1024, end }), socket, { end: false });
  }
  await answered;
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  socket.destroy();
  console.log(JSON.stringify({ seconds, rss: peakRssMb() }));
} else {
  console.error(`unknown mode ${mode}`);
  process.exit(2);
}
