// Hot reads compiled once. Kysely builds and compiles a query's SQL on every call; on the reads
// every keyed request makes (key lookup, the account) that was a sixth of the request's cost.
import type { Compilable, CompiledQuery, Kysely } from 'kysely';

/**
 * Compiles `build` once, with marker values standing for its parameters, and returns a function
 * that runs the compiled SQL with the real values put where the markers were.
 */
export function preparedQuery<Row, Params extends string[]>(
  db: Kysely<any>,
  arity: Params['length'],
  build: (...params: Params) => Compilable<Row>,
): (...params: Params) => Promise<Row[]> {
  const markers = Array.from({ length: arity }, (_, i) => `\u0000parameter ${i}\u0000`) as Params;
  const compiled = build(...markers).compile();
  const slots = compiled.parameters.map((value) => markers.indexOf(value as string));
  for (let i = 0; i < arity; i += 1) {
    if (!slots.includes(i)) throw new Error(`prepared query: parameter ${i} does not reach the SQL`);
  }
  return async (...params) => {
    const query: CompiledQuery<Row> = {
      ...compiled,
      parameters: slots.map((slot, i) => (slot >= 0 ? params[slot] : compiled.parameters[i])),
    };
    return (await db.executeQuery(query)).rows;
  };
}
