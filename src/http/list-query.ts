// A list's query as the route reads it: the schema has checked each value's form; what is neither
// the page size nor the cursor is a filter, carried as given into the page's links.
import type { FastifyRequest } from 'fastify';
import { LIST_PAGE } from '../app/paging.js';
import type { ListQuery } from '../app/lists.js';

export function listQuery(request: FastifyRequest): ListQuery {
  const { limit, cursor, ...filters } = request.query as Record<string, string>;
  return { limit: limit === undefined ? LIST_PAGE.default : Number(limit), cursor, filters };
}
