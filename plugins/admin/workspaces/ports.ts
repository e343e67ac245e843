/**
 * The tokens of the services this plugin registers for other plugins (services.ts). The key store
 * it uses (Tokens.KeyStore, auth.api-key) has core's KeyStore shape.
 */
export const ORG_SETTINGS: symbol = Symbol.for('gw.OrgSettings');
export const DIRECTORY: symbol = Symbol.for('gw.Directory');
