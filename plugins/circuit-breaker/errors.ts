/**
 * The answer for an attempt skipped by an open circuit. Kept here until the core catalogue has
 * `Errors.circuitOpen(path)`; same status and code as `Errors.allCircuitsOpen()`.
 */
import { GatewayError } from '../../core/index.js';

export function circuitOpen(targetPath: string, retryAfterSeconds: number): GatewayError {
  return new GatewayError({
    status: 503,
    message: `circuit open for target ${targetPath}`,
    code: 'circuit_open',
    headers: { 'retry-after': String(retryAfterSeconds) },
  });
}
