// Where each host listens, in its own module: servers.ts fills it in, and the hosts that link to
// another (docs, lab, tools) read it without importing servers.ts, which imports them.
import type { FastifyRequest } from 'fastify';
import type { HostName } from './host.js';

/**
 * Where each host listens, filled in as the hosts start, so one host can link to another with an
 * absolute URL (a relative link would resolve against the wrong host).
 */
export class HostDirectory {
  private readonly ports = new Map<HostName, number>();

  listening(name: HostName, port: number) {
    this.ports.set(name, port);
  }

  /** The base URL of a host, reached by the name the caller used for this one. */
  baseUrl(name: HostName, request: FastifyRequest): string {
    const port = this.ports.get(name);
    const hostname = request.hostname || '127.0.0.1';
    return `${request.protocol}://${hostname}${port === undefined ? '' : `:${port}`}`;
  }
}
