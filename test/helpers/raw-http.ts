/**
 * Raw HTTP over a TCP socket: request lines and headers exactly as written, which fetch and
 * node:http refuse to send (`GET http://[ HTTP/1.1`, broken percent-encoding, bare upgrades).
 */
import { connect } from 'node:net';

export interface RawAnswer {
  /** The status code of the first response line, or null when the server closed without one. */
  status: number | null;
  head: string;
  body: string;
}

/** Sends `text` to 127.0.0.1:port and resolves with what comes back before the socket closes. */
export function rawRequest(port: number, text: string, timeoutMs = 5000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let got = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms; got so far: ${JSON.stringify(got.slice(0, 200))}`));
    }, timeoutMs);
    socket.on('data', (d: Buffer) => {
      got += d.toString('latin1');
      // One response is enough: Connection: close may not be honoured on every error path.
      const end = got.indexOf('\r\n\r\n');
      if (end >= 0) {
        const length = /content-length:\s*(\d+)/i.exec(got.slice(0, end));
        if (length && got.length >= end + 4 + Number(length[1])) socket.end();
      }
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      const end = got.indexOf('\r\n\r\n');
      const head = end >= 0 ? got.slice(0, end) : got;
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(head);
      resolve({ status: m ? Number(m[1]) : null, head, body: end >= 0 ? got.slice(end + 4) : '' });
    });
    socket.write(text, 'latin1');
  });
}
