/**
 * The browser-mode host: serves the renderer bundle and the desktop API WebSocket on
 * 127.0.0.1 with a random per-launch token. It is the stand-in for Electron's window and IPC
 * wherever Electron cannot run (headless instrument PCs, this CI).
 */
import { randomBytes } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { WebSocketServer } from 'ws';
import { decodedPath, targetPathname } from '../../../node/request-target';
import { DESKTOP_WS_PATH } from '../../../shared/desktop-api/wire';
import type { Dispatcher } from '../dispatcher';
import { createAccessGuard, TOKEN_COOKIE } from './access-guard';
import { rendererCsp } from './csp';
import { serveDesktopSocket } from './ws-transport';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

export interface BrowserHost {
  url: string;
  token: string;
  port: number;
  close(): Promise<void>;
}

export interface BrowserHostOptions {
  rendererDir: string;
  dispatcher: Dispatcher;
  port?: number;
  token?: string;
  /** The page's Content-Security-Policy, asked at each load (the core's: loopback and remote profiles). */
  csp?: () => string;
}

function deny(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
  res.end(`${message}\n`);
}

/** Starts the host on 127.0.0.1; resolves with the tokenised URL to open. */
export async function startBrowserHost(options: BrowserHostOptions): Promise<BrowserHost> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  const guard = createAccessGuard(token);
  const root = normalize(options.rendererDir);
  const csp = options.csp ?? (() => rendererCsp());

  const serveFile = (req: IncomingMessage, res: ServerResponse, pathname: string, setCookie: boolean) => {
    const decoded = decodedPath(pathname);
    if (decoded === null) return deny(res, 400, 'Bad request: malformed percent-encoding in the path');
    const rel = pathname === '/' ? 'index.html' : decoded.replace(/^\/+/, '');
    const file = normalize(join(root, rel));
    if (!file.startsWith(root + sep)) return deny(res, 404, 'Not found');
    let size: number;
    try {
      const st = statSync(file);
      if (!st.isFile()) return deny(res, 404, 'Not found');
      size = st.size;
    } catch {
      return deny(res, 404, 'Not found');
    }
    const headers: Record<string, string | number> = {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'content-length': size,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    };
    if (extname(file) === '.html') {
      headers['content-security-policy'] = csp();
      headers['x-frame-options'] = 'DENY';
    }
    const out: Record<string, string | number | string[]> = { ...headers };
    if (setCookie) out['set-cookie'] = `${TOKEN_COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/`;
    res.writeHead(200, out);
    if (req.method === 'HEAD') return res.end();
    createReadStream(file).pipe(res);
  };

  const server: Server = createServer((req, res) => {
    if (!guard.hostOk(req)) return deny(res, 403, 'Forbidden: unexpected Host header');
    if (req.method !== 'GET' && req.method !== 'HEAD') return deny(res, 405, 'Method not allowed');
    const how = guard.tokenFrom(req);
    if (!how) return deny(res, 403, 'Forbidden: open Laneway with the URL it printed (it carries the access token)');
    const pathname = targetPathname(req.url);
    if (pathname === null) return deny(res, 400, 'Bad request: malformed request target');
    serveFile(req, res, pathname, how === 'query');
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: 4 * 1024 * 1024 });
  server.on('upgrade', (req, socket, head) => {
    const pathname = targetPathname(req.url);
    socket.on('error', () => {});
    if (pathname !== DESKTOP_WS_PATH || !guard.hostOk(req) || !guard.originOk(req) || !guard.tokenFrom(req)) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => serveDesktopSocket(ws, options.dispatcher));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  guard.allowedHosts.add(`127.0.0.1:${port}`);
  guard.allowedHosts.add(`localhost:${port}`);
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    token,
    port,
    close: async () => {
      for (const client of wss.clients) client.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
