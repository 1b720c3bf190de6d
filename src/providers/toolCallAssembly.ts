/**
 * Assembles a reply's native function calls from the pieces a server streams them in
 * (`delta.tool_calls`: the id and name first, the arguments' JSON text in many pieces, several
 * calls told apart by `index`), or takes them whole from a non-streamed answer's `message`.
 */
import type { NativeToolCall } from '../core/messages.js';

interface Building {
  id: string;
  name: string;
  arguments: string;
}

/** The fields of one streamed piece we read; servers differ in which they repeat. */
interface CallPiece {
  index?: unknown;
  id?: unknown;
  function?: { name?: unknown; arguments?: unknown } | null;
}

export class ToolCallAssembler {
  private readonly calls = new Map<number, Building>();
  private last = -1;

  /** Adds the `tool_calls` of one delta (or of a whole message). */
  push(pieces: unknown): void {
    if (!Array.isArray(pieces)) return;
    for (const [position, raw] of pieces.entries()) {
      if (typeof raw !== 'object' || raw === null) continue;
      this.add(raw as CallPiece, position);
    }
  }

  private add(piece: CallPiece, position: number): void {
    const id = typeof piece.id === 'string' && piece.id !== '' ? piece.id : undefined;
    const index = this.indexOf(piece, id, position);
    this.last = index;
    const call = this.calls.get(index) ?? { id: '', name: '', arguments: '' };
    this.calls.set(index, call);
    if (id !== undefined && call.id === '') call.id = id;
    const name = piece.function?.name;
    // Most servers send the name once; one that repeats it whole must not double it, and
    // one that streams it in pieces gets them joined.
    if (typeof name === 'string' && name !== call.name) call.name += name;
    const args = piece.function?.arguments;
    if (typeof args === 'string') call.arguments += args;
    else if (typeof args === 'object' && args !== null) call.arguments += JSON.stringify(args);
  }

  /** The piece's call: its index; else the call with its id; else a new id starts a call. */
  private indexOf(piece: CallPiece, id: string | undefined, position: number): number {
    if (typeof piece.index === 'number' && Number.isInteger(piece.index)) return piece.index;
    if (id !== undefined) {
      for (const [k, c] of this.calls) if (c.id === id) return k;
      return this.calls.size === 0 ? position : Math.max(...this.calls.keys()) + 1;
    }
    return this.last === -1 ? position : this.last;
  }

  /** The calls, in index order; a call the server gave no id gets `call_<index>`. */
  done(): NativeToolCall[] {
    return [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, c]) => ({
        id: c.id === '' ? `call_${index}` : c.id,
        name: c.name,
        arguments: c.arguments,
      }));
  }
}
