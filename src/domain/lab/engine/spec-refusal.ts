// The one refusal of a lab run spec: 422 invalid_request, every fault named.
import { refusal, type Refusal } from '../../../kernel/refusal.js';

export function runSpecRefusal(details: readonly string[]): Refusal {
  return refusal(422, 'invalid_request', `The run spec is not acceptable: ${details.length} fault${details.length === 1 ? '' : 's'}.`, details);
}
