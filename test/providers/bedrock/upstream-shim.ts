/**
 * TEMPORARY test shim, until route.upstream honours `EndpointAdapter.streamContentType` (requested
 * from the lead): today it answers 502 to any stream whose content type is not text/event-stream,
 * and ConverseStream answers `application/vnd.amazon.eventstream`. This replaces route.upstream in
 * place (same id) with the real plugin over a transport that adds `text/event-stream` to that
 * content type, keeping the original in it, so it works before and after the change. Delete it then.
 */
import UpstreamPlugin from '../../../plugins/upstream/index.js';
import { Tokens, type Plugin, type PluginApi, type Transport } from '../../../core/index.js';

const EVENT_STREAM = 'application/vnd.amazon.eventstream';

export default class EventStreamUpstreamShim implements Plugin {
  static readonly manifest = UpstreamPlugin.manifest;

  apply(api: PluginApi): void {
    const transport = api.container.resolve<Transport>(Tokens.Transport);
    const wrapped: Transport = {
      async send(request, signal) {
        const reply = await transport.send(request, signal);
        const type = reply.headers['content-type'];
        if (type?.includes(EVENT_STREAM) && !type.includes('text/event-stream')) reply.headers['content-type'] = `${type}; text/event-stream`;
        return reply;
      },
      close: () => transport.close(),
    };
    const container = new Proxy(api.container, {
      get(target, key, receiver) {
        if (key !== 'resolve') return Reflect.get(target, key, receiver);
        return (token: unknown) => (token === Tokens.Transport ? wrapped : target.resolve(token as symbol));
      },
    });
    new UpstreamPlugin().apply({ ...api, container });
  }
}
