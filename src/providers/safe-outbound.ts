// Outbound calls to addresses a user names (webhook receivers, exchange providers' platforms).
// Three checks, one rule (public unicast only, see public-address.ts):
// 1. the URL itself (scheme, credentials, local names, IP literals), when it is registered;
// 2. every address its host resolves to, when it is registered (so a user learns at once);
// 3. at every call, inside the connection: the host is resolved by a checked lookup that refuses
//    any non-public answer, IP literals are checked before dialling, and the peer address of the
//    socket actually connected is checked again before a byte of the request is written. There is no
//    check-then-connect gap for DNS rebinding to use. Redirects are never followed (undici's
//    request does not follow them).
import dns from 'node:dns';
import { isIP, type Socket } from 'node:net';
import type { Dispatcher, buildConnector as BuildConnector } from 'undici';
import { addressRefusal, localNameRefusal, UnsafeAddressError, type AddressRules } from './public-address.js';
import { OutboundClient } from './http-client.js';
import type { ConnectProbe, UserNamedTargets } from './ports.js';

export interface OutboundPolicy extends AddressRules {
  /** Tests only: plain http targets are accepted. */
  readonly allowHttp: boolean;
  /** Tests only: an extra trusted certificate authority (PEM), e.g. a local provider's self-signed certificate. */
  readonly extraCa: string | undefined;
  /** Host name resolution; the system resolver unless a test gives a table. */
  readonly resolve?: (hostname: string) => Promise<readonly string[]>;
}

export interface UrlRules {
  /** The exchange's connectors also refuse a query string and a fragment. */
  readonly refuseQueryAndFragment?: boolean;
}

/** The faults of a target URL as written, one sentence each; [] when it may be resolved. */
export function urlFaults(raw: string, policy: OutboundPolicy, rules: UrlRules = {}): string[] {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return [`"${raw}" is not an absolute URL`];
  }
  const faults: string[] = [];
  const schemes = policy.allowHttp ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) faults.push(`the URL must use https, not ${url.protocol.replace(/:$/, '')}`);
  if (url.username !== '' || url.password !== '') faults.push('the URL must not carry a user name or password');
  if (rules.refuseQueryAndFragment && url.search !== '') faults.push('the URL must not carry a query string');
  if (rules.refuseQueryAndFragment && url.hash !== '') faults.push('the URL must not carry a fragment');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const localName = localNameRefusal(host);
  if (localName) faults.push(localName);
  if (isIP(host) !== 0) {
    const refusal = addressRefusal(host, policy);
    if (refusal) faults.push(refusal);
  }
  return faults;
}

async function systemResolve(hostname: string): Promise<readonly string[]> {
  const answers = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => a.address);
}

/**
 * Resolves a URL's host and answers the faults of its addresses: every address must be public
 * (a name with one private answer among public ones is refused: the resolver may pick either).
 */
export async function resolvedFaults(raw: string, policy: OutboundPolicy): Promise<string[]> {
  const host = new URL(raw).hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) return [];
  let addresses: readonly string[];
  try {
    addresses = await (policy.resolve ?? systemResolve)(host);
  } catch {
    return [`${host} does not resolve`];
  }
  if (addresses.length === 0) return [`${host} does not resolve`];
  return addresses.flatMap((address) => {
    const refusal = resolvedRefusal(host, address, policy);
    return refusal ? [refusal] : [];
  });
}

/** Why `host`'s answer `address` may not be dialled, in one sentence, or null when it is public. */
function resolvedRefusal(host: string, address: string, policy: OutboundPolicy): string | null {
  const refusal = addressRefusal(address, policy);
  return refusal ? `${host} resolves to ${address}: ${refusal.replace(`${address} is `, '')}` : null;
}

type LookupCallback = (error: Error | null, address: string | dns.LookupAddress[], family?: number) => void;

/** A lookup for net/tls.connect that answers only public addresses and fails on any other. */
function checkedLookup(policy: OutboundPolicy) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    (policy.resolve ?? systemResolve)(hostname).then((addresses) => {
      if (addresses.length === 0) return callback(Object.assign(new Error(`${hostname} does not resolve`), { code: 'ENOTFOUND' }), '');
      for (const address of addresses) {
        const refusal = resolvedRefusal(hostname, address, policy);
        if (refusal) return callback(new UnsafeAddressError(refusal), '');
      }
      const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => isIP(a) === options.family) : addresses;
      if (wanted.length === 0) return callback(Object.assign(new Error(`${hostname} has no IPv${options.family} address`), { code: 'ENOTFOUND' }), '');
      if (options.all) return callback(null, wanted.map((address) => ({ address, family: isIP(address) })));
      callback(null, wanted[0]!, isIP(wanted[0]!));
    }, (error: Error) => callback(error, ''));
  };
}

/**
 * An undici dispatcher that enforces the address rule at connect time (see the header). One per
 * policy; callers keep it for the process's life.
 */
export async function safeDispatcher(policy: OutboundPolicy): Promise<Dispatcher> {
  const { Agent, buildConnector } = await import('undici');
  const connector = buildConnector({
    lookup: checkedLookup(policy),
    ...(policy.extraCa ? { ca: [...(await import('node:tls')).rootCertificates, policy.extraCa] } : {}),
  } as BuildConnector.BuildOptions);
  const connect: BuildConnector.connector = (options, callback) => {
    const host = options.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) !== 0) {
      const refusal = addressRefusal(host, policy);
      if (refusal) {
        queueMicrotask(() => callback(new UnsafeAddressError(refusal), null));
        return;
      }
    }
    connector(options, (error, socket) => {
      if (error || !socket) return callback(error ?? new Error('no socket'), null);
      // The address actually dialled: whatever resolved it, this is who the request would reach.
      const peer = (socket as Socket).remoteAddress ?? '';
      const refusal = addressRefusal(peer, policy);
      if (refusal) {
        socket.destroy();
        return callback(new UnsafeAddressError(`connected to ${refusal}`), null);
      }
      callback(null, socket);
    });
  };
  return new Agent({ connect });
}

/**
 * The steps of reaching a URL's host, timed (the exchange's check): the name resolved and every
 * address checked, then a connection (TLS for https, verified against the trusted authorities and
 * the host name) to the first checked address, whose peer is checked again. No request is sent.
 */
export async function probe(raw: string, policy: OutboundPolicy, timeoutMs: number): Promise<ConnectProbe> {
  const url = new URL(raw);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let started = performance.now();
  const elapsed = () => Math.round((performance.now() - started) * 10) / 10;
  let addresses: readonly string[];
  if (isIP(host) !== 0) addresses = [host];
  else {
    try {
      addresses = await (policy.resolve ?? systemResolve)(host);
    } catch {
      addresses = [];
    }
    if (addresses.length === 0) return { dns: { ok: false, ms: elapsed(), fault: `${host} does not resolve` } };
  }
  const refused = addresses.map((a) => addressRefusal(a, policy)).filter((r): r is string => r !== null);
  if (refused.length > 0) return { dns: { ok: false, ms: elapsed(), fault: `${host} resolves to a non-public address: ${refused.join('; ')}` } };
  const dnsStep = { ok: true as const, ms: elapsed(), addresses };
  const address = addresses[0]!;
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  started = performance.now();
  const tlsModule = url.protocol === 'https:' ? await import('node:tls') : undefined;
  const netModule = await import('node:net');
  const connect = await new Promise<ConnectProbe['connect']>((resolve) => {
    const done = (step: NonNullable<ConnectProbe['connect']>, socket?: Socket) => {
      socket?.destroy();
      resolve(step);
    };
    const ready = (socket: Socket, tls: string | null) => {
      const refusal = addressRefusal(socket.remoteAddress ?? '', policy);
      if (refusal) return done({ ok: false, ms: elapsed(), fault: `connected to ${refusal}` }, socket);
      done({ ok: true, ms: elapsed(), address: socket.remoteAddress ?? address, tls }, socket);
    };
    const socket: Socket = tlsModule
      ? tlsModule.connect({
        host: address, port, ...(isIP(host) === 0 ? { servername: host } : {}),
        ...(policy.extraCa ? { ca: [...tlsModule.rootCertificates, policy.extraCa] } : {}),
      }, () => ready(socket, (socket as import('node:tls').TLSSocket).getProtocol() ?? null))
      : netModule.connect({ host: address, port }, () => ready(socket, null));
    socket.setTimeout(timeoutMs, () => done({ ok: false, ms: elapsed(), fault: `no connection within ${timeoutMs} ms` }, socket));
    socket.on('error', (error: Error & { code?: string }) => done({ ok: false, ms: elapsed(), fault: `${error.code ?? error.name}: ${error.message}` }, socket));
  });
  return { dns: dnsStep, connect };
}

/** The port use cases are handed for user-named URLs (ports.ts), over one connect-time-checked dispatcher. */
export function userNamedTargets(policy: OutboundPolicy, userAgent: string): UserNamedTargets {
  let dispatcher: Promise<Dispatcher> | undefined;
  return {
    async faults(url, rules) {
      const written = urlFaults(url, policy, rules);
      return written.length > 0 ? written : resolvedFaults(url, policy);
    },
    async send(url, request, limits) {
      dispatcher ??= safeDispatcher(policy);
      const client = new OutboundClient({ ...limits, userAgent, minIntervalMs: 0, dispatcher: await dispatcher });
      return client.send(url, request);
    },
    probe: (url, timeoutMs) => probe(url, policy, timeoutMs),
  };
}
