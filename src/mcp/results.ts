/**
 * An MCP tool result as text for the model: text content as text, images, audio and
 * resources as a one-line description with their size (never their bytes), structured
 * content as compact JSON. The tool runner then cuts it to the tool-result budget.
 */

/** The content blocks this module understands; others are described by their type. */
interface ContentBlock {
  type: string;
  text?: string;
  data?: string;
  mimeType?: string;
  uri?: string;
  name?: string;
  resource?: { uri?: string; mimeType?: string; text?: string; blob?: string };
}

/** The parts of a `tools/call` result that matter here. */
export interface CallResultLike {
  content?: unknown;
  structuredContent?: unknown;
  isError?: boolean;
}

/** The result's text, and whether the server marked it as an error. */
export function resultToText(result: CallResultLike): { text: string; isError: boolean } {
  const blocks = Array.isArray(result.content) ? (result.content as ContentBlock[]) : [];
  const parts = blocks.map(describeBlock);
  const structured = result.structuredContent;
  if (structured !== undefined && !alreadyShown(structured, blocks)) {
    parts.push(JSON.stringify(structured));
  }
  const text = parts.length === 0 ? '(the tool returned no content)' : parts.join('\n');
  return { text, isError: result.isError === true };
}

function describeBlock(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text ?? '';
    case 'image':
    case 'audio':
      return `[${block.type} ${block.mimeType ?? 'of unknown type'}, ${size(base64Bytes(block.data))}]`;
    case 'resource': {
      const r = block.resource ?? {};
      const bytes = r.text !== undefined ? Buffer.byteLength(r.text, 'utf8') : base64Bytes(r.blob);
      const type = r.mimeType === undefined ? '' : ` ${r.mimeType}`;
      return `[resource ${r.uri ?? '(no uri)'}${type}, ${size(bytes)}]`;
    }
    case 'resource_link':
      return `[resource link ${block.uri ?? '(no uri)'}${block.name ? ` "${block.name}"` : ''}]`;
    default:
      return `[${String(block.type)} content]`;
  }
}

/** Servers are asked to repeat structured content as a text block; do not show it twice. */
function alreadyShown(structured: unknown, blocks: readonly ContentBlock[]): boolean {
  const compact = JSON.stringify(structured);
  return blocks.some((b) => {
    if (b.type !== 'text' || b.text === undefined) return false;
    try {
      return JSON.stringify(JSON.parse(b.text)) === compact;
    } catch {
      return false;
    }
  });
}

function base64Bytes(data: string | undefined): number {
  if (data === undefined) return 0;
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

/** `512 bytes`, `12.3 KB`, `4.0 MB`. */
function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
