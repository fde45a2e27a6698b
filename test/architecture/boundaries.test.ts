// The layer rules (docs/architecture.md), read from the import lines of every module under src/.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { builtinModules } from 'node:module';
import { importsOf, sources, SRC } from './source-files.js';

/** Node modules that only compute (no file, network, process or thread access). */
const PURE_NODE = new Set(['assert', 'assert/strict', 'buffer', 'crypto', 'string_decoder', 'util']);

/**
 * Route modules: they read the request, call one use case of app/ and write the answer. The tool
 * server's modules (http/mcp/) are a front door too: a tool calls the REST route's use case.
 */
function isRoute(path: string): boolean {
  const rel = relative(SRC, path).split(/[\\/]/).join('/');
  return rel.startsWith('http/api/') || rel.startsWith('http/mcp/') || rel === 'http/lab.ts' || rel === 'http/dataroom.ts';
}

/** The layer a module of src/ belongs to: its first folder, or the file's own name at the top. */
function layerOf(path: string): string {
  return relative(SRC, path).split(/[\\/]/)[0]!.replace(/\.[jt]s$/, '');
}

/** A module's folder under domain/ (stats, triggers, ...), or null outside domain/. */
function domainPartOf(path: string): string | null {
  const parts = relative(SRC, path).split(/[\\/]/);
  return parts[0] === 'domain' && parts.length > 2 ? parts[1]! : null;
}

const isNode = (specifier: string): boolean =>
  specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0]!);
const nodeName = (specifier: string): string => specifier.replace(/^node:/, '');

/** What a module may not import, as sentences; empty when it keeps to its layer's rules. */
export function violations(file: string, text: string): string[] {
  const layer = layerOf(file);
  const out: string[] = [];
  for (const { specifier, line, typeOnly } of importsOf(file, text)) {
    const where = `${relative(SRC, file)}:${line} imports ${specifier}`;
    if (isNode(specifier)) {
      if ((layer === 'domain' || layer === 'kernel' || layer === 'render') && !PURE_NODE.has(nodeName(specifier))) {
        out.push(`${where}: ${layer}/ does no I/O (only ${[...PURE_NODE].join(', ')} of node's modules)`);
      }
      continue;
    }
    if (!specifier.startsWith('.')) continue; // an npm package
    const resolved = resolve(dirname(file), specifier);
    const target = layerOf(resolved);
    if (layer === 'kernel' && target !== 'kernel') out.push(`${where}: kernel/ imports only kernel/`);
    if (layer === 'domain' && target !== 'domain' && target !== 'kernel') out.push(`${where}: domain/ imports only kernel/ and domain/`);
    // Charts are drawn from the numbers they are handed: render/ reads no store, feed or request.
    if (layer === 'render' && !['render', 'domain', 'kernel'].includes(target)) out.push(`${where}: render/ imports only kernel/, domain/ and render/`);
    // The statistics are plain mathematics: they know no structure, payout or feed.
    if (domainPartOf(file) === 'stats' && target !== 'kernel' && domainPartOf(resolved) !== 'stats') out.push(`${where}: domain/stats/ imports only kernel/ and domain/stats/`);
    if (layer === 'store' && target === 'http') out.push(`${where}: store/ never imports http/`);
    if ((layer === 'feeds' || layer === 'jobs') && target === 'http') out.push(`${where}: ${layer}/ never imports http/`);
    // app/ is given its ports (AppDeps): it never reaches for the process's wiring or a front door.
    if (layer === 'app' && ['http', 'jobs', 'services', 'main'].includes(target)) out.push(`${where}: app/ never imports ${target === 'services' || target === 'main' ? `${target}.ts` : `${target}/`}`);
    if ((layer === 'store' || layer === 'feeds') && target === 'app') out.push(`${where}: ${layer}/ is a port of app/ and never imports it`);
    if (layer === 'http' && target === 'jobs') out.push(`${where}: http/ queues and reads jobs through app/, never jobs/`);
    // The command line's client speaks HTTP only: it works against any catrisk URL, so it shares no module with the service.
    if (layer === 'cli' && target !== 'cli') out.push(`${where}: cli/ speaks HTTP and imports only cli/`);
    // providers/ call outside services (or read an installed package) and speak plain data: they know
    // no store, feed store, use case or front door.
    if (layer === 'providers' && !['providers', 'domain', 'kernel', 'config', 'telemetry'].includes(target)) out.push(`${where}: providers/ imports only kernel/, domain/, providers/, telemetry/ and config.ts`);
    // telemetry/ (metrics, request ids, trace context) is used by the edge, the worker and the
    // outbound client: it knows none of them, nor any store, feed or use case.
    if (layer === 'telemetry' && !['telemetry', 'kernel'].includes(target)) out.push(`${where}: telemetry/ imports only kernel/ and telemetry/`);
    // app/ is handed its providers through AppDeps: it names their ports, never builds one.
    if (layer === 'app' && target === 'providers' && !typeOnly) out.push(`${where}: app/ is handed its providers (type-only imports of providers/)`);
    // A route calls app/ for every rule and every read or write; a type it names is fine.
    if (isRoute(file) && !typeOnly && ['store', 'domain', 'feeds', 'providers'].includes(target)) out.push(`${where}: a route calls app/, not ${target}/ (type-only imports excepted)`);
  }
  return out;
}

test('every module of src/ keeps to its layer\'s imports', () => {
  const files = sources();
  assert.ok(files.length > 50, `read ${files.length} modules under ${SRC}`);
  const found = files.flatMap((f) => violations(f, readFileSync(f, 'utf8')));
  assert.deepEqual(found, []);
});

test('the rule reads every import form and names each crossing', () => {
  const at = (path: string) => join(SRC, path);
  // Hand-made module texts: each line is one form of import the walker must see.
  assert.deepEqual(violations(at('domain/x.ts'), "import type { Snapshot } from '../feeds/store.js';").length, 1);
  assert.deepEqual(violations(at('domain/a/x.ts'), "import {\n  readCsv,\n} from '../../feeds/records.js';").length, 1);
  assert.deepEqual(violations(at('domain/x.ts'), "export { thing } from '../http/errors.js';").length, 1);
  assert.deepEqual(violations(at('domain/x.ts'), "const m = await import('../store/objects.js');").length, 1);
  assert.deepEqual(violations(at('domain/x.ts'), "import { readFileSync } from 'node:fs';").length, 1);
  assert.deepEqual(violations(at('domain/x.ts'), "import { connect } from 'net';").length, 1);
  assert.deepEqual(violations(at('domain/x.ts'), "import { run } from '../jobs/worker.js';\nimport { x } from '../app/price.js';").length, 2);
  assert.deepEqual(violations(at('store/x.ts'), "import { ApiError } from '../http/errors.js';").length, 1);
  assert.deepEqual(violations(at('kernel/x.ts'), "import { dayEpoch } from '../domain/occurrence.js';").length, 1);
  assert.deepEqual(violations(at('domain/stats/x.ts'), "import { roundMoney } from '../backtest/payout.js';").length, 1);
  assert.deepEqual(violations(at('render/x.ts'), "import { readBacktest } from '../app/structures.js';\nimport { readFileSync } from 'node:fs';").length, 2);
  assert.deepEqual(violations(at('render/x.ts'), "import type { LabMetrics } from '../domain/lab/engine/metrics.js';\nimport { esc } from './svg.js';\nimport { renderAsync } from '@resvg/resvg-js';"), []);
  assert.deepEqual(violations(at('domain/stats/x.ts'), "import { gamma } from './special-functions.js';\nimport { DAY_MS } from '../../kernel/dates.js';"), []);
  // Allowed: kernel, domain, pure node modules, npm packages; http/ may import anything.
  assert.deepEqual(violations(at('domain/a/x.ts'), [
    "import { ok } from '../../kernel/result.js';",
    "import { boxContains } from '../geo.js';",
    "import { isDeepStrictEqual } from 'node:util';",
    "import { Ajv2020 } from 'ajv/dist/2020.js';",
  ].join('\n')), []);
  assert.deepEqual(violations(at('http/x.ts'), "import { readFileSync } from 'node:fs';\nimport { x } from '../store/objects.js';"), []);
});

test('app/ is given its ports, and routes call app/', () => {
  const at = (path: string) => join(SRC, path);
  assert.deepEqual(violations(at('app/x.ts'), "import { answer } from '../http/answer.js';").length, 1);
  assert.deepEqual(violations(at('app/x.ts'), "import type { JobHandler } from '../jobs/worker.js';").length, 1);
  assert.deepEqual(violations(at('app/x.ts'), "import { runTask } from '../jobs/threads.js';").length, 1);
  assert.deepEqual(violations(at('app/x.ts'), "import type { Services } from '../services.js';").length, 1);
  assert.deepEqual(violations(at('store/x.ts'), "import { queueJob } from '../app/jobs.js';").length, 1);
  assert.deepEqual(violations(at('feeds/x.ts'), "import type { AppDeps } from '../app/deps.js';").length, 1);
  assert.deepEqual(violations(at('http/x.ts'), "import { runTask } from '../jobs/threads.js';").length, 1);
  assert.deepEqual(violations(at('http/api/x.ts'), "import { ObjectBusy } from '../../store/objects.js';").length, 1);
  assert.deepEqual(violations(at('http/api/x.ts'), "import { applyPatch } from '../../domain/risk-object/patch.js';").length, 1);
  assert.deepEqual(violations(at('http/lab.ts'), "import { labModel } from '../domain/lab/models.js';").length, 1);
  assert.deepEqual(violations(at('http/dataroom.ts'), "import { FeedStore } from '../feeds/store.js';").length, 1);
  assert.deepEqual(violations(at('http/mcp/tools.ts'), "import { runWindstorm } from '../../domain/lab/lanes/windstorm-piwind/windstorm-lane.js';").length, 1);
  assert.deepEqual(violations(at('http/mcp/tools.ts'), "import { LabRunStore } from '../../store/lab-runs.js';").length, 1);
  assert.deepEqual(violations(at('http/mcp/server.ts'), "import { runTask } from '../../jobs/threads.js';").length, 1);
  // Allowed: app/ over domain, kernel, store and feeds; jobs/ over app/; a route naming a type.
  assert.deepEqual(violations(at('app/x.ts'), [
    "import { replay } from './backtest.js';",
    "import { ObjectBusy } from '../store/objects.js';",
    "import { eventCatalog } from '../feeds/readers.js';",
    "import { applyPatch } from '../domain/risk-object/patch.js';",
    "import { ok } from '../kernel/result.js';",
  ].join('\n')), []);
  assert.deepEqual(violations(at('jobs/x.ts'), "import { priceJob } from '../app/price.js';"), []);
  assert.deepEqual(violations(at('http/api/x.ts'), "import type { Box } from '../../domain/geo.js';\nimport { readJob } from '../../app/jobs.js';"), []);
  assert.deepEqual(violations(at('http/host.ts'), "import { secretDigest } from '../store/accounts.js';"), []);
  assert.deepEqual(violations(at('http/mcp/tools.ts'), "import { readRun } from '../../app/lab-runs.js';\nimport type { Snapshot } from '../../feeds/store.js';\nimport * as lab from '../schemas/lab.js';"), []);
});

test('providers/ speak plain data, and app/ is handed them', () => {
  const at = (path: string) => join(SRC, path);
  assert.deepEqual(violations(at('providers/x.ts'), "import { geocode } from '../app/geocode.js';").length, 1);
  assert.deepEqual(violations(at('providers/x.ts'), "import { oedReference } from '../feeds/oed.js';").length, 1);
  assert.deepEqual(violations(at('providers/x.ts'), "import type { Tables } from '../store/tables.js';").length, 1);
  assert.deepEqual(violations(at('app/x.ts'), "import { gazetteerGeocoder } from '../providers/geocoders.js';").length, 1);
  assert.deepEqual(violations(at('http/api/x.ts'), "import { nominatimGeocoder } from '../../providers/geocoders.js';").length, 1);
  assert.deepEqual(violations(at('providers/x.ts'), [
    "import { request } from 'undici';",
    "import { readFile } from 'node:fs/promises';",
    "import { codeRow } from '../domain/coding/classifier.js';",
    "import { EMBEDDED_CODER } from '../kernel/versions.js';",
    "import type { GeocoderKind } from '../config.js';",
    "import { OutboundClient } from './http-client.js';",
  ].join('\n')), []);
  assert.deepEqual(violations(at('app/x.ts'), "import type { ExposureCoder } from '../providers/ports.js';"), []);
});

test('telemetry/ knows no layer but kernel/, and the outbound client may read it', () => {
  const at = (path: string) => join(SRC, path);
  assert.deepEqual(violations(at('telemetry/x.ts'), "import type { JobStore } from '../store/jobs.js';").length, 1);
  assert.deepEqual(violations(at('telemetry/x.ts'), "import { sendError } from '../http/host.js';").length, 1);
  assert.deepEqual(violations(at('telemetry/x.ts'), "import type { Services } from '../services.js';").length, 1);
  assert.deepEqual(violations(at('telemetry/x.ts'), [
    "import { AsyncLocalStorage } from 'node:async_hooks';",
    "import { Registry } from 'prom-client';",
    "import { trace } from '@opentelemetry/api';",
    "import { traceHeadersOf } from './trace-context.js';",
    "import { canonicalJson } from '../kernel/canonical-json.js';",
  ].join('\n')), []);
  assert.deepEqual(violations(at('providers/http-client.ts'), "import { outboundTraceHeaders } from '../telemetry/work.js';"), []);
});

test('the command line\'s client speaks HTTP only', () => {
  const at = (path: string) => join(SRC, path);
  assert.deepEqual(violations(at('cli/x.ts'), "import { readJob } from '../app/jobs.js';").length, 1);
  assert.deepEqual(violations(at('cli/commands/x.ts'), "import type { JobRow } from '../../store/jobs.js';").length, 1);
  assert.deepEqual(violations(at('cli/x.ts'), "import { ERROR_CODES } from '../kernel/refusal.js';\nimport { loadConfig } from '../config.js';").length, 2);
  assert.deepEqual(violations(at('cli/commands/x.ts'), "import { request } from '../client.js';\nimport { parseArgs } from 'node:util';\nimport { readFile } from 'node:fs/promises';"), []);
  assert.deepEqual(violations(at('main.ts'), "const client = await import('./cli/index.js');"), []);
});
