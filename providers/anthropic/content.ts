/**
 * OpenAI content parts → Anthropic content blocks: text, images (data URLs as base64 sources,
 * http(s) URLs as url sources), PDF files as document blocks. Parts of other types are passed on
 * unchanged, so a client may send native Anthropic blocks (document, search_result ...) directly.
 */
import type { Block, DocumentBlock, ImageBlock, TextBlock } from './wire.js';

type Part = Record<string, unknown>;

/** A message content (string, parts or null) as blocks; empty text is dropped (the API refuses it). */
export function toBlocks(content: unknown): Block[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  const blocks: Block[] = [];
  for (const part of content as Part[]) {
    const block = toBlock(part);
    if (block) blocks.push(block);
  }
  return blocks;
}

function toBlock(part: Part): Block | undefined {
  switch (part.type) {
    case 'text':
      return typeof part.text === 'string' && part.text !== '' ? withCacheControl({ type: 'text', text: part.text }, part) : undefined;
    case 'image_url': {
      const image = part.image_url;
      const url = typeof image === 'string' ? image : (image as { url?: unknown } | undefined)?.url;
      return typeof url === 'string' ? withCacheControl(fromUrl(url), part) : (part as Block);
    }
    case 'file': {
      const data = (part.file as { file_data?: unknown } | undefined)?.file_data;
      return typeof data === 'string' && data.startsWith('data:') ? withCacheControl(fromUrl(data), part) : (part as Block);
    }
    default:
      return part as Block;
  }
}

/** A data URL becomes a base64 source (a document for PDFs); any other URL a url source. */
export function fromUrl(url: string): ImageBlock | DocumentBlock {
  if (!url.startsWith('data:')) return { type: 'image', source: { type: 'url', url } };
  // Split by index, not a regex: data URLs of images run to megabytes.
  const comma = url.indexOf(',');
  const header = comma === -1 ? url.slice(5) : url.slice(5, comma);
  const payload = comma === -1 ? '' : url.slice(comma + 1);
  const semicolon = header.indexOf(';');
  const mediaType = semicolon === -1 ? header : header.slice(0, semicolon);
  const data = header.endsWith(';base64') ? payload : Buffer.from(decodeURIComponent(payload)).toString('base64');
  const source = { type: 'base64' as const, media_type: mediaType, data };
  return mediaType === 'application/pdf' ? { type: 'document', source } : { type: 'image', source };
}

function withCacheControl<B extends TextBlock | ImageBlock | DocumentBlock>(block: B, part: Part): B {
  if (part.cache_control !== undefined) (block as { cache_control?: unknown }).cache_control = part.cache_control;
  return block;
}

/** The inverse of fromUrl for a base64 source: the data URL OpenAI-format content parts carry. */
export function toDataUrl(source: { media_type: string; data: string }): string {
  return `data:${source.media_type};base64,${source.data}`;
}
