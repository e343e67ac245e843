/** Short, secret-free descriptions of transport failures (no URLs: they may carry keys). */
export function describeNetworkError(e: unknown): string {
  const err = e as { code?: string; cause?: { code?: string; message?: string }; message?: string; name?: string };
  const code = err?.code ?? err?.cause?.code;
  switch (code) {
    case 'ECONNREFUSED': return 'connection refused';
    case 'ECONNRESET': return 'connection reset';
    case 'UND_ERR_SOCKET': return 'socket closed';
    case 'ENOTFOUND': return 'host not found';
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT': return 'connect timed out';
    case 'UND_ERR_HEADERS_TIMEOUT': return 'no response headers in time';
    case 'UND_ERR_BODY_TIMEOUT': return 'body stalled';
    case 'EPIPE': return 'broken pipe';
    default: return code ?? err?.name ?? 'network error';
  }
}
