/** jose, imported when the first bearer JWT arrives: a gateway whose callers use keys never loads it. */
import { lazy } from '../../../core/index.js';

export type Jose = typeof import('jose');

export const jose = lazy((): Promise<Jose> => import('jose'));
