/** The two upstreams every feature.messages end-to-end test talks to, and a gateway in front of them. */
import { startAnthropicMock, type MockAnthropic } from '../../../fixtures/mock-anthropic.js';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { startGateway, type TestGateway } from '../../../helpers/gateway.js';

export interface MessagesUpstreams {
  anthropic: MockAnthropic;
  openai: MockOpenAI;
  gw: TestGateway;
  /** Forgets what the mocks recorded (between tests). */
  reset(): void;
  stop(): Promise<void>;
}

export async function startMessagesUpstreams(): Promise<MessagesUpstreams> {
  const anthropic = await startAnthropicMock();
  const openai = await startMockOpenAI();
  const gw = await startGateway();
  return {
    anthropic, openai, gw,
    reset: () => {
      anthropic.reset();
      openai.reset();
    },
    stop: async () => {
      await gw.stop();
      await anthropic.close();
      await openai.close();
    },
  };
}
