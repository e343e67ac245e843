/** What feature.prompts shares with other plugins (the request logs): import this file and nothing else of it. */
import { requestKey } from '../../../core/index.js';

/** The id of the prompt template a request was rendered from. */
export const PromptIdKey = requestKey<string>('prompt.id');
