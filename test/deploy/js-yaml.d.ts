// Minimal types for js-yaml 4 (installed with mocha; no @types package here): only what these tests use.
declare module 'js-yaml' {
  export function load(text: string): unknown;
  export function loadAll(text: string): unknown[];
}
