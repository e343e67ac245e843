/** The http(s) URLs of the image parts of a chat request (`{type: "image_url", image_url: {url}}`). */
export function imageUrlsOf(json: Readonly<Record<string, unknown>>): string[] {
  const messages = json['messages'];
  if (!Array.isArray(messages)) return [];
  const urls: string[] = [];
  for (const message of messages) {
    const content = (message as { content?: unknown } | null)?.content;
    if (!Array.isArray(content)) continue;
    for (const part of content) {
      if (!part || typeof part !== 'object' || (part as { type?: unknown }).type !== 'image_url') continue;
      const ref = (part as { image_url?: unknown }).image_url;
      const url = typeof ref === 'string' ? ref : (ref as { url?: unknown } | null)?.url;
      // data: URLs are already inline; other schemes (gs://) are the provider's business.
      if (typeof url === 'string' && /^https?:\/\//i.test(url)) urls.push(url);
    }
  }
  return urls;
}
