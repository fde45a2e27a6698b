// Raw HTTP/1.1 over a socket: sends exact bytes (malformed ones included) and reads the answer.
import net from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: any;
  text: string;
  /** The server closed the connection after answering. */
  closed: boolean;
}

/** Sends the bytes (optionally in timed pieces) and parses the first response. */
export function rawRequest(base: string, pieces: Array<string | Buffer | { waitMs: number }>, timeoutMs = 10_000): Promise<RawAnswer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    let closed = false;
    const timer = setTimeout(() => { socket.destroy(); finish(); }, timeoutMs);
    const finish = () => {
      clearTimeout(timer);
      const raw = Buffer.concat(chunks).toString('utf8');
      const end = raw.indexOf('\r\n\r\n');
      if (end < 0) return reject(new Error(`no HTTP answer (closed=${closed}): ${JSON.stringify(raw.slice(0, 200))}`));
      const [line, ...fields] = raw.slice(0, end).split('\r\n');
      const headers: Record<string, string> = {};
      for (const f of fields) headers[f.slice(0, f.indexOf(':')).toLowerCase()] = f.slice(f.indexOf(':') + 1).trim();
      let text = raw.slice(end + 4);
      if (headers['content-length'] !== undefined) text = text.slice(0, Number(headers['content-length']));
      let body: unknown;
      try { body = JSON.parse(text); } catch { body = undefined; }
      resolve({ status: Number(line!.split(' ')[1]), headers, body, text, closed });
    };
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', () => {});
    socket.on('close', () => { closed = true; finish(); });
    void (async () => {
      for (const piece of pieces) {
        if (socket.destroyed) return;
        if (typeof piece === 'object' && 'waitMs' in piece) await new Promise((r) => setTimeout(r, piece.waitMs));
        else socket.write(piece);
      }
    })();
  });
}

/** A request head with the given lines, ending the head. */
export function head(requestLine: string, ...headerLines: string[]): string {
  return `${requestLine}\r\nHost: localhost\r\n${headerLines.map((h) => `${h}\r\n`).join('')}\r\n`;
}
