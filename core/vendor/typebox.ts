/**
 * The parts of TypeBox the gateway uses, from one module: `npm run build` bundles this file's
 * compiled copy in place (bundle.ts), so boot reads one file instead of TypeBox's ~250 modules.
 */
export { Type, Kind, type TSchema, type Static } from '@sinclair/typebox';
export { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
export { Value, ValueErrorType, type ValueError } from '@sinclair/typebox/value';
