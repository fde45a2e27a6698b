// Content negotiation for the routes that answer in more than one format: ?format= names one
// outright (it wins over Accept, so a link can say what it is); otherwise Accept chooses among the
// route's media types (RFC 9110 §12.5.1: q-values, the most specific range deciding an offer's q).
// No Accept, or one that admits JSON through */*, answers JSON as before. An Accept that admits
// none of the offers is refused 406 in the envelope, naming what is served.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, refusal } from '../kernel/refusal.js';

/** One representation a route serves: its format= name and its media type. */
export interface MediaOffer { readonly format: string; readonly type: string }

export const JSON_OFFER: MediaOffer = { format: 'json', type: 'application/json' };
export const CSV_OFFER: MediaOffer = { format: 'csv', type: 'text/csv' };
export const GEOJSON_OFFER: MediaOffer = { format: 'geojson', type: 'application/geo+json' };
export const OED_OFFER: MediaOffer = { format: 'oed', type: 'text/csv' };

interface MediaRange { type: string; subtype: string; q: number; order: number }

function mediaRanges(accept: string): MediaRange[] {
  return accept.split(',').flatMap((part, order) => {
    const [range, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const [type, subtype] = (range ?? '').split('/');
    if (!type || !subtype) return [];
    const qParam = params.find((p) => p.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    return Number.isFinite(q) ? [{ type, subtype, q: Math.min(Math.max(q, 0), 1), order }] : [];
  });
}

/** How an Accept header rates an offer: its q, how specific the range was, where it stood. */
function rating(ranges: readonly MediaRange[], offer: MediaOffer): { q: number; specificity: number; order: number } | undefined {
  const [type, subtype] = offer.type.split('/');
  let best: { q: number; specificity: number; order: number } | undefined;
  for (const r of ranges) {
    const specificity = r.type === type && r.subtype === subtype ? 2 : r.type === type && r.subtype === '*' ? 1 : r.type === '*' && r.subtype === '*' ? 0 : -1;
    if (specificity >= 0 && (!best || specificity > best.specificity)) best = { q: r.q, specificity, order: r.order };
  }
  return best;
}

/**
 * The representation to answer with. `offers` are in the route's order of preference, JSON first;
 * the schema has already checked format= against them. Ties in q go to the more specific range,
 * then to the one named first in Accept, then to the route's order.
 */
export function negotiate(request: FastifyRequest, offers: readonly MediaOffer[]): MediaOffer {
  const format = (request.query as Record<string, string | undefined> | undefined)?.format;
  if (format !== undefined) {
    const named = offers.find((o) => o.format === format);
    if (named) return named;
  }
  const header = request.headers.accept;
  if (header === undefined || header.trim() === '') return offers[0]!;
  const ranges = mediaRanges(header);
  let chosen: { offer: MediaOffer; q: number; specificity: number; order: number } | undefined;
  for (const offer of offers) {
    const r = rating(ranges, offer);
    if (!r || r.q === 0) continue;
    if (!chosen || r.q > chosen.q || (r.q === chosen.q && (r.specificity > chosen.specificity || (r.specificity === chosen.specificity && r.order < chosen.order)))) {
      chosen = { offer, ...r };
    }
  }
  if (!chosen) {
    const served = [...new Set(offers.map((o) => o.type))];
    throw ApiError.of(refusal(406, 'not_acceptable',
      `Accept admits none of the media types this resource is served as: ${served.join(', ')} (or name one with format=${offers.map((o) => o.format).join('|')}).`));
  }
  return chosen.offer;
}

/** The query parameter every negotiated route takes, for its schema. */
export function formatParameter(offers: readonly MediaOffer[]): Record<string, unknown> {
  return {
    type: 'string',
    enum: offers.map((o) => o.format),
    description: `The representation: ${offers.map((o) => `${o.format} (${o.type})`).join(', ')}. Wins over Accept when both are sent.`,
  };
}

/**
 * Writes a text export: its media type (CSV with charset and header=present, RFC 4180 §3), a file
 * name for clients that save it, and Vary: Accept since the same URL answers in several types.
 */
export function sendExport(reply: FastifyReply, offer: MediaOffer, body: unknown, filename: string) {
  const type = offer.type === 'text/csv' ? 'text/csv; charset=utf-8; header=present' : `${offer.type}; charset=utf-8`;
  return reply.header('vary', 'Accept').header('content-disposition', `attachment; filename="${filename}"`).type(type).send(body);
}
