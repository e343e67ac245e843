/**
 * Card reading and rewriting on hand-written cards of both versions, including what the test agent
 * does not serve: a v0.3 card preferring gRPC, relative and non-HTTP URLs, the agent's own OAuth
 * security on the card and its skills, signatures.
 */
import { expect } from 'chai';
import { checkCard, checkProxiable, jsonRpcInterfaces, pickInterface, rewriteCard, type Card } from '../../../../plugins/agents/agent-servers/card-shape.js';

const CARD_URL = 'https://agent.example.com/.well-known/agent-card.json';
const ENDPOINT = 'https://gw.example.com/v1/agents/abc';

function legacyCard(): Card {
  return {
    name: 'Legacy', description: 'v0.3', version: '2.0.0', protocolVersion: '0.3.0',
    url: 'grpc.agent.example.com:443', preferredTransport: 'GRPC',
    additionalInterfaces: [
      { url: 'grpc.agent.example.com:443', transport: 'GRPC' },
      { url: '/a2a/jsonrpc', transport: 'JSONRPC' },
      { url: 'https://agent.example.com/a2a/rest', transport: 'HTTP+JSON' },
    ],
    capabilities: { streaming: true, pushNotifications: true },
    supportsAuthenticatedExtendedCard: true,
    securitySchemes: { oauth: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: 'https://idp.example.com/token', scopes: {} } } } },
    security: [{ oauth: ['agent'] }],
    skills: [{ id: 's', name: 's', description: '', tags: [], security: [{ oauth: ['x'] }] }],
    signatures: [{ protected: 'e30', signature: 'sig' }],
    provider: { organization: 'Example', url: 'https://example.com' },
  };
}

describe('agents.agent-servers: card shapes', () => {
  it('reads the JSON-RPC endpoints of a v0.3 card, resolving relative URLs and skipping other transports', () => {
    expect(jsonRpcInterfaces(legacyCard(), CARD_URL)).to.deep.equal([{ url: 'https://agent.example.com/a2a/jsonrpc', version: '0.3' }]);
  });

  it('reads the JSON-RPC endpoints of a v1.0 card with their versions; a non-HTTP URL is not one', () => {
    const card: Card = {
      name: 'V1', supportedInterfaces: [
        { url: 'https://agent.example.com/rpc', protocolBinding: 'jsonrpc', protocolVersion: '1.0', tenant: '' },
        { url: 'https://agent.example.com/rpc-legacy', protocolBinding: 'JSONRPC', protocolVersion: '0.3', tenant: '' },
        { url: 'ftp://agent.example.com/rpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0', tenant: '' },
        { url: 'agent.example.com:50051', protocolBinding: 'GRPC', protocolVersion: '1.0', tenant: '' },
      ],
    };
    const found = jsonRpcInterfaces(card, CARD_URL);
    expect(found).to.deep.equal([
      { url: 'https://agent.example.com/rpc', version: '1.0' },
      { url: 'https://agent.example.com/rpc-legacy', version: '0.3' },
    ]);
    expect(pickInterface(found, '1.0')!.url).to.equal('https://agent.example.com/rpc');
    expect(pickInterface(found, undefined)!.url, 'no A2A-Version means 0.3').to.equal('https://agent.example.com/rpc-legacy');
    expect(pickInterface(found, '0.3.0')!.url).to.equal('https://agent.example.com/rpc-legacy');
    expect(pickInterface(found, '2.0')!.url, 'an unknown version takes the first').to.equal('https://agent.example.com/rpc');
  });

  it('rewrites a v0.3 card: JSON-RPC at the gateway, the gateway key as its security, nothing of the agent\'s endpoints left', () => {
    const out = rewriteCard(legacyCard(), ENDPOINT);
    expect(out).to.include({ url: ENDPOINT, preferredTransport: 'JSONRPC', supportsAuthenticatedExtendedCard: false });
    expect(out['additionalInterfaces']).to.deep.equal([{ url: ENDPOINT, transport: 'JSONRPC' }]);
    expect(out['capabilities']).to.deep.equal({ streaming: true, pushNotifications: false });
    expect(out['securitySchemes']).to.deep.equal({ gatewayApiKey: { type: 'apiKey', in: 'header', name: 'x-gw-api-key', description: 'The gateway API key' } });
    expect(out['security']).to.deep.equal([{ gatewayApiKey: [] }]);
    expect(out).not.to.have.property('signatures');
    expect((out['skills'] as Card[])[0]).not.to.have.property('security');
    expect(JSON.stringify(out)).not.to.match(/agent\.example\.com|idp\.example\.com/);
    // The organisation's own URL is not an endpoint: kept.
    expect(out['provider']).to.deep.equal({ organization: 'Example', url: 'https://example.com' });
  });

  it('leaves the card it was given unchanged (a cached card is rewritten for every answer)', () => {
    const card = legacyCard();
    const before = JSON.stringify(card);
    rewriteCard(card, ENDPOINT);
    expect(JSON.stringify(card)).to.equal(before);
  });

  it('refuses what is not a card, and a card without a JSON-RPC interface (502 naming the server)', () => {
    for (const value of [null, [], 'card', { name: 'x' }, { url: 'https://a' }, { name: 1, url: 'https://a' }]) {
      expect(() => checkCard(value, 'srv'), JSON.stringify(value)).to.throw(/"srv" answered something that is not an A2A agent card/);
    }
    const onlyGrpc: Card = { name: 'g', url: 'grpc.example.com:443', preferredTransport: 'GRPC' };
    expect(() => checkProxiable(onlyGrpc, CARD_URL, 'srv')).to.throw(/"srv" offers no JSON-RPC interface/);
    const legacyDefault: Card = { name: 'd', url: 'https://agent.example.com/rpc' };
    expect(jsonRpcInterfaces(checkProxiable(legacyDefault, CARD_URL, 'srv'), CARD_URL), 'preferredTransport defaults to JSONRPC')
      .to.deep.equal([{ url: 'https://agent.example.com/rpc', version: '0.3' }]);
  });
});
