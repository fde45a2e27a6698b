// A chart written onto a reply: its media type, an ETag of its bytes (304 when If-None-Match names
// them), and for SVG a policy that lets a browser opening it directly load and run nothing.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Chart } from '../app/charts.js';
import { bytesTag, notModified } from './caching.js';

export function sendChart(request: FastifyRequest, reply: FastifyReply, chart: Chart, filename: string) {
  // Not immutable: the same numbers may be drawn better by a later release.
  if (notModified(request, reply, bytesTag(chart.body), { immutable: false })) return reply.code(304).send();
  if (chart.type === 'image/svg+xml') reply.header('content-security-policy', "default-src 'none'");
  return reply.header('content-disposition', `inline; filename="${filename}"`)
    .type(chart.type === 'image/svg+xml' ? 'image/svg+xml; charset=utf-8' : chart.type).send(chart.body);
}
