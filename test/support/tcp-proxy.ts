// A TCP relay on 127.0.0.1 that can stop forwarding without closing anything: a stalled link
// (a dead NAT entry, a frozen server), as opposed to a refused or reset one.
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface StallingProxy {
  /** host:port to connect to instead of the target. */
  readonly address: string;
  /** From now on, no byte is forwarded on any open connection, ever again, nor on new ones. */
  stall(): void;
  /** New connections forward again; connections that were stalled stay dead. */
  resume(): void;
  close(): Promise<void>;
}

export async function startStallingProxy(targetHost: string, targetPort: number): Promise<StallingProxy> {
  let stalled = false;
  const links = new Set<{ client: Socket; upstream: Socket; dead: boolean }>();
  const server: Server = createServer((client) => {
    const upstream = connect(targetPort, targetHost);
    const link = { client, upstream, dead: stalled };
    links.add(link);
    client.on('data', (chunk) => { if (!link.dead) upstream.write(chunk); });
    upstream.on('data', (chunk) => { if (!link.dead) client.write(chunk); });
    const end = () => { links.delete(link); client.destroy(); upstream.destroy(); };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    address: `127.0.0.1:${port}`,
    stall() {
      stalled = true;
      for (const link of links) link.dead = true;
    },
    resume() {
      stalled = false;
    },
    async close() {
      for (const link of links) { link.client.destroy(); link.upstream.destroy(); }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
