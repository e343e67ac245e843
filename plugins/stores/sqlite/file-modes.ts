/**
 * The database holds hashed keys, sealed secrets and request logs: its file and SQLite's WAL and
 * shared-memory files are readable by their owner only (0600), whatever the process umask.
 */
import { chmodSync, closeSync, fchmodSync, openSync, statSync } from 'node:fs';

const PRIVATE_MODE = 0o600;

/** The database file and the two SQLite keeps beside it in WAL mode. */
export function databaseFiles(file: string): string[] {
  return [file, `${file}-wal`, `${file}-shm`];
}

/**
 * Creates `file` empty with mode 0600 unless it exists (SQLite treats an empty file as a new
 * database, and gives its WAL and shared-memory files the database file's mode).
 */
export function createPrivateFile(file: string): void {
  let fd: number;
  try {
    fd = openSync(file, 'wx', PRIVATE_MODE);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return;
    throw e;
  }
  try {
    fchmodSync(fd, PRIVATE_MODE); // a umask such as 0277 would otherwise leave the owner unable to write
  } finally {
    closeSync(fd);
  }
}

/** Sets each existing file that group or others can access to 0600; returns what was changed, for a warning. */
export function tightenModes(files: readonly string[]): { file: string; was: string }[] {
  const changed: { file: string; was: string }[] = [];
  for (const file of files) {
    let mode: number;
    try {
      mode = statSync(file).mode & 0o777;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw e;
    }
    if ((mode & 0o077) === 0) continue;
    chmodSync(file, PRIVATE_MODE);
    changed.push({ file, was: mode.toString(8) });
  }
  return changed;
}
