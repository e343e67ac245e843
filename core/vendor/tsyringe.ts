/**
 * tsyringe and the reflect-metadata polyfill it needs, from one module: `npm run build` bundles
 * this file's compiled copy in place (bundle.ts), so boot reads one file instead of ~35 modules.
 */
import 'reflect-metadata';

export { container, inject, injectable, singleton, type DependencyContainer, type InjectionToken } from 'tsyringe';
