// What a parsed JSON body may hold before any route reads it. The walk is iterative: a body nested
// thousands of levels deep must be refused, not overflow the stack of whatever reads it next.

/** Deepest nesting of arrays and objects a body may have; no document the API reads comes near. */
export const MAX_BODY_NESTING = 64;

export type BodyFault =
  | { kind: 'too_deep'; limit: number }
  | { kind: 'lone_surrogate' }
  | { kind: 'nul' };

function stringFault(s: string): BodyFault | undefined {
  if (!s.isWellFormed()) return { kind: 'lone_surrogate' };
  // PostgreSQL text cannot hold U+0000, and no id, name or value the API reads needs it.
  if (s.includes('\u0000')) return { kind: 'nul' };
  return undefined;
}

/** The first fault in a parsed JSON value, or undefined when every route may read it. */
export function bodyFault(value: unknown, limit = MAX_BODY_NESTING): BodyFault | undefined {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: v, depth } = stack.pop()!;
    if (typeof v === 'string') {
      const fault = stringFault(v);
      if (fault) return fault;
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > limit) return { kind: 'too_deep', limit };
    if (Array.isArray(v)) {
      for (const item of v) stack.push({ value: item, depth: depth + 1 });
    } else {
      for (const [k, item] of Object.entries(v)) {
        const fault = stringFault(k);
        if (fault) return fault;
        stack.push({ value: item, depth: depth + 1 });
      }
    }
  }
  return undefined;
}

export function describeBodyFault(fault: BodyFault): { status: 400 | 422; message: string } {
  switch (fault.kind) {
    case 'too_deep':
      return { status: 422, message: `The body nests arrays and objects more than ${fault.limit} levels deep; no document read here needs more.` };
    case 'lone_surrogate':
      return { status: 400, message: 'The body holds a string with a lone surrogate; send well-formed UTF-8.' };
    case 'nul':
      return { status: 422, message: 'The body holds a string with a NUL character (\\u0000), which no id, name or value may contain.' };
  }
}
