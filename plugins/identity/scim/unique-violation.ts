/** Whether a store error is a unique-constraint violation (SQLite's message, PostgreSQL's code 23505). */
export function isUniqueViolation(e: unknown): boolean {
  const error = e as { code?: unknown; message?: unknown } | null;
  return error?.code === '23505' || (typeof error?.message === 'string' && error.message.includes('UNIQUE constraint failed'));
}
