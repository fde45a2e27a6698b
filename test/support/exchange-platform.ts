// A provider's platform implementing the exchange provider protocol
// (schemas/protocols/exchange-provider.v0.json), run locally over HTTPS with a self-signed
// certificate generated here (SAN: 127.0.0.1 and platform.example.com). Its model is hand-made for
// the tests: the "average annual loss" it answers is 0.1% of the values sent, so a test can
// recompute it independently from the points it submitted.
import { createServer, type Server } from 'node:https';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import selfsigned from 'selfsigned';

export const PLATFORM_HOST = 'platform.example.com';
export const PLATFORM_TOKEN = 'prov-token-5f1c9e0b7a3d4c21-not-a-real-secret';
export const MODEL_REF = 'kanto-quake-v2';
/** The hand-made model's rate: the loss answered is this share of the values sent. */
export const HAND_MADE_RATE = 0.001;

export interface SeenRequest { method: string; path: string; authorization: string | undefined; body: any }

export interface Platform {
  port: number;
  /** The certificate's PEM file, for CATRISK_OUTBOUND_EXTRA_CA_FILE. */
  caFile: string;
  ca: string;
  seen: SeenRequest[];
  /** The next run submitted fails on the platform with this message. */
  failNext(message: string): void;
  close(): Promise<void>;
}

export async function startPlatform(): Promise<Platform> {
  const pems = await selfsigned.generate([{ name: 'commonName', value: PLATFORM_HOST }], {
    keySize: 2048, algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, keyCertSign: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [{ type: 2, value: PLATFORM_HOST }, { type: 7, ip: '127.0.0.1' }] },
    ],
  });
  const dir = mkdtempSync(join(tmpdir(), 'catrisk-platform-'));
  const caFile = join(dir, 'platform-ca.pem');
  writeFileSync(caFile, pems.cert);
  const seen: SeenRequest[] = [];
  const runs = new Map<string, { polls: number; points: Array<{ value: number }>; fail?: string }>();
  let failing: string | undefined;
  let counter = 0;
  const server: Server = createServer({ key: pems.private, cert: pems.cert }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const body = text ? JSON.parse(text) : undefined;
      const path = (request.url ?? '').replace(/^\/catrisk/, '');
      seen.push({ method: request.method ?? '', path, authorization: request.headers.authorization, body });
      const send = (status: number, value: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(value));
      };
      if (request.headers.authorization !== `Bearer ${PLATFORM_TOKEN}`) return send(401, { message: 'unknown token' });
      let m: RegExpExecArray | null;
      if (request.method === 'GET' && path === '/v1/account') return send(200, { account: 'catrisk' });
      if (request.method === 'GET' && (m = /^\/v1\/models\/([^/]+)$/.exec(path))) return m[1] === MODEL_REF ? send(200, { model_ref: MODEL_REF, version: '2.0' }) : send(404, { message: 'no such model' });
      if (request.method === 'POST' && (m = /^\/v1\/models\/([^/]+)\/runs$/.exec(path))) {
        if (m[1] !== MODEL_REF) return send(404, { message: 'no such model' });
        const ref = `r${++counter}`;
        runs.set(ref, { polls: 0, points: body.exposure.points, ...(failing ? { fail: failing } : {}) });
        failing = undefined;
        return send(202, { run_ref: ref, status: 'queued' });
      }
      if (request.method === 'GET' && (m = /^\/v1\/runs\/([^/]+)$/.exec(path))) {
        const run = runs.get(m[1]!);
        if (!run) return send(404, { message: 'no such run' });
        run.polls += 1;
        if (run.polls < 2) return send(200, { run_ref: m[1], status: 'running' });
        return send(200, run.fail ? { run_ref: m[1], status: 'failed', message: run.fail } : { run_ref: m[1], status: 'succeeded' });
      }
      if (request.method === 'GET' && (m = /^\/v1\/runs\/([^/]+)\/result$/.exec(path))) {
        const run = runs.get(m[1]!);
        if (!run || run.polls < 2 || run.fail) return send(409, { message: 'not succeeded' });
        const total = run.points.reduce((sum, p) => sum + p.value, 0);
        return send(200, { average_annual_loss: total * HAND_MADE_RATE, places: run.points.length, model_version: '2.0' });
      }
      send(404, { message: 'no such route' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    caFile, ca: pems.cert, seen,
    failNext(message) { failing = message; },
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
