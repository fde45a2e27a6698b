// A local HTTP server standing in for an outside service (a geocoder, a chat-completions API): each
// test sets how it answers; it records what it was sent. Built on node:http, no mocks.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
}

export type Behaviour = (request: Received, response: ServerResponse) => void;

export interface FakeUpstream {
  readonly url: string;
  readonly received: Received[];
  behave(b: Behaviour): void;
  close(): Promise<void>;
}

export async function fakeUpstream(initial: Behaviour = (_q, r) => r.end()): Promise<FakeUpstream> {
  let behaviour = initial;
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const r = { method: request.method ?? '', url: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      received.push(r);
      behaviour(r, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    behave(b) { behaviour = b; },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Answers JSON with a status. */
export const json = (status: number, body: unknown): Behaviour => (_q, r) => {
  r.writeHead(status, { 'content-type': 'application/json' }).end(typeof body === 'string' ? body : JSON.stringify(body));
};

/** Never answers (the connection stays open until the server closes). */
export const silent: Behaviour = () => {};

/** A chat-completions answer whose message content is the given text (OpenAI's wire format). */
export function chatAnswer(content: string, extra: Record<string, unknown> = {}): unknown {
  return {
    id: 'chatcmpl-test', object: 'chat.completion', created: 1_700_000_000, model: 'test-model',
    choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content, refusal: null, ...extra } }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  };
}
