/**
 * `node --import <this file>`: records every module the process loads (ES modules as they load,
 * CommonJS files from the require cache at exit) in the file named by GW_TEST_MODULE_TRACE, one
 * URL or path a line. For tests of what a boot imports.
 */
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';

const out = process.env['GW_TEST_MODULE_TRACE'];
if (!out) throw new Error('GW_TEST_MODULE_TRACE must name the file to write the module list to');
register('./hooks.js', import.meta.url, { data: { out } });
const require = createRequire(import.meta.url);
process.on('exit', () => appendFileSync(out, Object.keys(require.cache).join('\n') + '\n'));
