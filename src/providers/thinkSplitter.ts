/**
 * Splits streamed model content into reasoning and reply text on `<think>…</think>` tags.
 *
 * Several models (DeepSeek-R1 distills, QwQ, Qwen3 behind some servers) put their reasoning
 * inside the content field wrapped in `<think>` tags instead of a separate field. The tags
 * arrive split across stream chunks at any position (`"<th"` + `"ink>"`), so the splitter is
 * a small state machine that holds back a chunk's tail while it could still be the start of
 * a tag, and releases it as soon as it cannot.
 */

/** Which pane a piece of model output belongs to. */
type Channel = 'reasoning' | 'text';

/** A run of output for one channel. */
export interface Segment {
  channel: Channel;
  text: string;
}

interface ThinkSplitter {
  /** Feeds the next content chunk; returns what can be released now (adjacent runs merged). */
  push(chunk: string): Segment[];
  /** Releases anything held back (a tag prefix that never completed). Call once at the end. */
  flush(): Segment[];
}

const OPEN = '<think>';
const CLOSE = '</think>';

/** Length of the longest suffix of `text` that is a proper prefix of `tag`. */
function partialTagLength(text: string, tag: string): number {
  const max = Math.min(text.length, tag.length - 1);
  for (let len = max; len > 0; len -= 1) {
    if (text.endsWith(tag.slice(0, len))) return len;
  }
  return 0;
}

/** Creates a fresh splitter: one per reply, it is stateful. */
export function createThinkSplitter(): ThinkSplitter {
  let inside = false;
  let held = '';
  // Models put a newline or two right after a tag ("<think>\n", "</think>\n\n"); dropping that
  // leading whitespace keeps both panes from starting with blank lines.
  let trimLeading = false;

  function emit(out: Segment[], channel: Channel, raw: string): void {
    let text = raw;
    if (trimLeading) {
      text = text.replace(/^\s+/, '');
      if (text.length === 0) return;
      trimLeading = false;
    }
    if (text.length === 0) return;
    const last = out[out.length - 1];
    if (last && last.channel === channel) last.text += text;
    else out.push({ channel, text });
  }

  return {
    push(chunk: string): Segment[] {
      const out: Segment[] = [];
      let rest = held + chunk;
      held = '';
      while (rest.length > 0) {
        const channel: Channel = inside ? 'reasoning' : 'text';
        const tag = inside ? CLOSE : OPEN;
        const at = rest.indexOf(tag);
        if (at >= 0) {
          emit(out, channel, rest.slice(0, at));
          rest = rest.slice(at + tag.length);
          inside = !inside;
          trimLeading = true;
          continue;
        }
        const keep = partialTagLength(rest, tag);
        emit(out, channel, rest.slice(0, rest.length - keep));
        held = rest.slice(rest.length - keep);
        break;
      }
      return out;
    },
    flush(): Segment[] {
      const out: Segment[] = [];
      emit(out, inside ? 'reasoning' : 'text', held);
      held = '';
      return out;
    },
  };
}
