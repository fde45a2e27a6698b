// Entry of a compute thread when the service runs from its TypeScript sources (tests, development):
// Node 20.6 and later do not hand the parent's --import hooks to worker threads, so the thread
// registers tsx itself before loading dispatch.ts. Built code runs dispatch.js and never reads this.
import { register } from 'tsx/esm/api';

register();
const dispatch = await import('./dispatch.ts');
export default dispatch.default;
