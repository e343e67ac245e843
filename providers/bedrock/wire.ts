/** The parts of the Bedrock Converse / ConverseStream and Rerank wire formats this adapter reads and writes. */

export type ImageFormat = 'png' | 'jpeg' | 'gif' | 'webp';

export type ContentBlock =
  | { text: string }
  | { image: { format: ImageFormat; source: { bytes: string } } }
  | { toolUse: { toolUseId: string; name: string; input: unknown } }
  | { toolResult: { toolUseId: string; content: ({ text: string } | { json: unknown })[]; status?: 'success' | 'error' } };

export interface ConverseMessage {
  role: 'user' | 'assistant';
  content: ContentBlock[];
}

export type ToolChoice = { auto: Record<string, never> } | { any: Record<string, never> } | { tool: { name: string } };

export interface ToolSpec {
  toolSpec: { name: string; description?: string; inputSchema: { json: unknown } };
}

export interface InferenceConfig {
  maxTokens?: number;
  temperature?: number;
  topP?: number;
  stopSequences?: string[];
}

export interface ConverseRequest {
  messages: ConverseMessage[];
  system?: { text: string }[];
  inferenceConfig?: InferenceConfig;
  toolConfig?: { tools: ToolSpec[]; toolChoice?: ToolChoice };
}

export interface ConverseUsage {
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
  cacheReadInputTokens?: number;
  cacheWriteInputTokens?: number;
}

/** Response content blocks: text and tool use are translated; others (reasoning ...) are skipped. */
export interface OutputBlock {
  text?: string;
  toolUse?: { toolUseId: string; name: string; input: unknown };
}

export interface ConverseResponse {
  output?: { message?: { role: string; content?: OutputBlock[] } };
  stopReason?: string;
  usage?: ConverseUsage;
}

// ---- ConverseStream event payloads (the event name is the frame's `:event-type` header) ----

export interface ContentBlockStartEvent {
  contentBlockIndex: number;
  start?: { toolUse?: { toolUseId: string; name: string } };
}

export interface ContentBlockDeltaEvent {
  contentBlockIndex: number;
  delta?: { text?: string; toolUse?: { input: string } };
}

export interface MessageStopEvent {
  stopReason?: string;
}

export interface MetadataEvent {
  usage?: ConverseUsage;
}

// ---- Rerank (bedrock-agent-runtime) ----

export type RerankSource =
  | { type: 'INLINE'; inlineDocumentSource: { type: 'TEXT'; textDocument: { text: string } } }
  | { type: 'INLINE'; inlineDocumentSource: { type: 'JSON'; jsonDocument: unknown } };

export interface RerankRequest {
  queries: { type: 'TEXT'; textQuery: { text: string } }[];
  sources: RerankSource[];
  rerankingConfiguration: {
    type: 'BEDROCK_RERANKING_MODEL';
    bedrockRerankingConfiguration: {
      numberOfResults?: number;
      modelConfiguration: { modelArn: string; additionalModelRequestFields?: Record<string, unknown> };
    };
  };
}

export interface RerankResponse {
  results?: { index: number; relevanceScore: number; document?: { type?: string; textDocument?: { text?: string }; jsonDocument?: unknown } }[];
  nextToken?: string;
}
