/**
 * The suite's second pass, on the PostgreSQL record store: `npm test` runs mocha as usual (SQLite),
 * then this. It makes a database of its own for the run (so concurrent runs never meet), runs
 * mocha with GW_TEST_RECORD_STORE=postgres (each test gateway then gets a schema in it), and drops
 * the database after. Without GW_DATABASE_URL it says so in one line and passes.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { admin } from './helpers/pg-schema.js';

async function main(): Promise<number> {
  const url = process.env['GW_DATABASE_URL'];
  if (!url) {
    console.log('GW_DATABASE_URL is not set: the PostgreSQL pass of the suite is skipped');
    return 0;
  }
  const database = `gw_test_${randomBytes(6).toString('hex')}`;
  await admin(url, `CREATE DATABASE ${database}`);
  const runUrl = new URL(url);
  runUrl.pathname = `/${database}`;
  console.log(`PostgreSQL pass: the suite again on the PostgreSQL record store (database ${database}, dropped after)`);
  const mocha = createRequire(import.meta.url).resolve('mocha/bin/mocha.js');
  const child = spawn(process.execPath, [mocha, ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, GW_DATABASE_URL: runUrl.toString(), GW_TEST_RECORD_STORE: 'postgres' },
  });
  // Ctrl-C reaches mocha too; the database is dropped once it has exited.
  process.on('SIGINT', () => undefined);
  const code = await new Promise<number>((resolve) => child.once('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0))));
  await admin(url, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  return code;
}

main().then((code) => process.exit(code), (e: Error) => {
  console.error(`PostgreSQL pass failed to run: ${e.message}`);
  process.exit(1);
});
