/** What the bare proxy's two forwardings share: their shape and the headers no hop passes on. */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Forwards one request to the upstream and its answer back. */
export type Forward = (req: IncomingMessage, res: ServerResponse) => void;

/** Connection-level headers belong to each hop, not to the forwarded message. */
export const HOP_BY_HOP: ReadonlySet<string> = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer']);
