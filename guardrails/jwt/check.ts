/**
 * `default.jwt`: verifies the JWT in a request header against a JSON Web Key Set. Passes when the
 * signature is valid with an allowed algorithm and the claims hold (exp, nbf, maxTokenAge, iss, aud,
 * `claims`). Fails closed: no token, a bad token, or a key set that cannot be fetched all fail,
 * with the reason in `data.explanation` (never the token itself).
 */
import { defineCheck, type Transport } from '../../core/index.js';
import { JwksCache } from './jwks.js';
import { JwtParams, type JwtAlgorithm } from './params.js';
import { claimProblem, decodeJwt, keyFits, verifySignature } from './token.js';

const DEFAULT_ALGORITHMS: readonly JwtAlgorithm[] = ['RS256', 'ES256'];

export function createJwtCheck(transport: Transport, now: () => number = Date.now) {
  const jwks = new JwksCache(transport, now);
  const fail = (explanation: string) => ({ verdict: false, data: { explanation } });

  return defineCheck({
    id: 'default.jwt',
    params: JwtParams,
    phases: ['beforeRequest', 'input'],
    async check(_input, params, ctx) {
      const headerName = (params.headerKey ?? 'Authorization').toLowerCase();
      const raw = ctx.request.headers[headerName];
      if (!raw) return fail(`no token in the ${headerName} header`);
      const token = raw.replace(/^Bearer\s+/i, '').trim();
      const jwt = decodeJwt(token);
      if (!jwt) return fail('the token is not a well-formed JWT');
      const alg = jwt.header.alg;
      if (typeof alg !== 'string' || !(params.algorithms ?? DEFAULT_ALGORITHMS).includes(alg as JwtAlgorithm)) {
        return fail(`algorithm ${JSON.stringify(alg)} is not allowed`);
      }
      const kid = typeof jwt.header.kid === 'string' ? jwt.header.kid : undefined;
      let keys;
      try {
        keys = await jwks.keysFor(params.jwksUri, kid, params.cacheMaxAge ?? 86400);
      } catch (e) {
        return fail(`the key set could not be fetched: ${(e as Error).message}`);
      }
      const usable = keys.filter((k) => keyFits(alg as JwtAlgorithm, k));
      if (usable.length === 0) return fail(kid ? `no key with kid "${kid}" for ${alg}` : `no key for ${alg}`);
      if (!usable.some((k) => verifySignature(alg as JwtAlgorithm, k, jwt))) return fail('the signature is not valid');
      const problem = claimProblem(jwt.payload, {
        issuer: params.issuer,
        audience: params.audience,
        claims: params.claims,
        requireExp: params.requireExp !== false,
        clockTolerance: params.clockTolerance ?? 5,
        maxTokenAge: params.maxTokenAge,
      }, Math.floor(now() / 1000));
      if (problem) return fail(problem);
      const sub = jwt.payload['sub'];
      return { verdict: true, data: { alg, kid: kid ?? null, sub: typeof sub === 'string' ? sub : null } };
    },
  });
}
