// Which User-Agent values name an application (SPEC Overview 3). A User-Agent is a list of
// product tokens ("name/version") and comments ("(...)"). It is anonymous when it is empty or when
// every product it names is an HTTP library or tool on the refused list: `curl/8.5.0`, the bare
// `node` of Node's built-in fetch, `Python/3.12 aiohttp/3.9.1`, `Dart/3.2 (dart:io)`. Products are
// compared by whole name, never by substring, so `nodeapp/1.0` or
// `acme-pricing/1.2 python-requests/2.31` (an application naming itself beside its library) pass.

/** The product names of a User-Agent value, lower case, without versions or comments. */
export function productNames(agent: string): string[] {
  const names: string[] = [];
  let depth = 0;
  let token = '';
  const flush = () => {
    const name = token.split('/')[0]!.toLowerCase();
    // A bare version word ("Faraday v2.9.0") belongs to the product before it.
    if (name !== '' && !/^v?\d/.test(name)) names.push(name);
    token = '';
  };
  for (const ch of agent) {
    if (ch === '(') { if (depth === 0) flush(); depth += 1; continue; }
    if (ch === ')') { if (depth > 0) depth -= 1; continue; }
    if (depth > 0) continue;
    if (ch === ' ' || ch === '\t') flush();
    else token += ch;
  }
  flush();
  return names;
}

/** True when the agent names no application: refused with 403 forbidden at the edge. */
export function isAnonymousAgent(agent: string | undefined, refused: ReadonlySet<string>): boolean {
  const names = productNames(agent ?? '');
  return names.length === 0 || names.every((name) => refused.has(name));
}
