/**
 * What others may use of the Anthropic provider (feature.messages, which speaks the Messages API in
 * front): the wire types and the mappings between Messages and the unified chat format that this
 * adapter already defines, so that both directions stay one table.
 */
export { ANTHROPIC_VERSION, ERROR_STATUS } from './wire.js';
export type {
  Block, BlockDelta, ContentBlock, ImageBlock, Message, MessageParam, MessagesRequest, StopReason, StreamEvent,
  TextBlock, ToolChoice, ToolParam, ToolResultBlock, ToolUseBlock, WireError, WireUsage,
} from './wire.js';
export { finishReason, fromUsage, stopReason, toUsage } from './response.js';
export { toDataUrl } from './content.js';
