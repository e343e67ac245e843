/** guardrail.jwt: registers `default.jwt` (JWT verification against a JWKS URL). */
import { Services, type Plugin, type PluginApi } from '../../core/index.js';
import { createJwtCheck } from './check.js';

export default class JwtGuardrail implements Plugin {
  static readonly manifest = { id: 'guardrail.jwt', description: 'default.jwt: the request carries a valid JWT (JWKS, claims)' };

  apply(api: PluginApi): void {
    const check = createJwtCheck(api.services.get(Services.Transport));
    api.registries.checks.register(check.id, check, api.id);
  }
}
