/**
 * One session's safety state, shared by every tool call of the agent: the redactor built
 * from the configured keys, the index of what was read, and the boundary that marks
 * outside content. The tool runner asks it three things: may this call send its arguments
 * out without asking, what does the model see of this result, and what was just read.
 */
import { say, t, type Lang, type MessageKey } from '../i18n/messages.js';
import { Redactor } from '../core/redact.js';
import type { Tool, ToolArg } from './types.js';
import { outgoingForms } from '../safety/decodings.js';
import { ReadIndex } from '../safety/readIndex.js';
import { newBoundary, stripControlTokens, wrapUntrusted } from '../safety/untrusted.js';

/** Safety state for one agent session; build one per agent. */
export class SessionSafety {
  readonly redactor: Redactor;
  readonly reads: ReadIndex;
  /** Marks web and MCP content for the model; drawn once, at random. */
  readonly boundary: string;

  constructor(secrets: readonly (string | undefined)[] = [], options: { boundary?: string } = {}) {
    this.redactor = new Redactor(secrets);
    this.reads = new ReadIndex();
    this.boundary = options.boundary ?? newBoundary();
  }

  /** Whether calls of `tool` send their arguments off the machine. */
  static sendsOut(tool: Tool): boolean {
    return tool.kind === 'network' || tool.carriesDataOut === true;
  }

  /**
   * Why this outgoing call needs the user's yes, naming where the data came from, or
   * undefined when its arguments carry nothing read this session and nothing secret.
   */
  egressReason(tool: Tool, args: readonly ToolArg[], lang: Lang = 'en'): string | undefined {
    if (!SessionSafety.sendsOut(tool)) return undefined;
    const where = tool.sendsToPhrase
      ? say(lang, tool.sendsToPhrase)
      : (tool.sendsTo ?? t(lang, 'reason.offMachine'));
    const strings = args.filter((a): a is string => typeof a === 'string');
    for (const s of strings) {
      const key = outgoingForms(s).find((f) => this.redactor.contains(f.form));
      if (key !== undefined)
        return t(lang, 'reason.egressKey', { how: howIn(lang, key.how), where });
    }
    for (const s of strings) {
      const shape = secretShapeIn(s, lang);
      if (shape !== undefined) {
        return t(lang, 'reason.egressSecret', {
          what: shape.what,
          how: howIn(lang, shape.how),
          where,
        });
      }
    }
    const read = this.reads.find(strings, tool.sendsTo === undefined);
    if (read !== undefined) {
      const how = howIn(lang, read.how);
      return t(lang, 'reason.egressRead', { source: read.source, how, where });
    }
    return undefined;
  }

  /** Records what a successful read-kind call returned, under the call that read it. */
  observe(tool: Tool | undefined, call: string, text: string): void {
    if (tool?.kind === 'read') this.reads.add(call, text);
  }

  /**
   * The model's view of a result: outside content wrapped as data on every path. A success
   * of an untrusted tool, or one the tool marked `untrusted` (a document read), is wrapped whole. A failure keeps Cogito's own message as it is
   * (control tokens removed all the same when the tool reads from outside, since a URL or a
   * name in it came from there), and what the server said (`outside`: a reason phrase, an
   * MCP error) follows it, wrapped, so it never reads as Cogito's wording.
   */
  forModel(
    tool: Tool | undefined,
    ok: boolean,
    body: string,
    outside?: string,
    untrusted = false,
  ): string {
    const source = tool?.name ?? 'a tool';
    if (ok)
      return tool?.untrustedOutput === true || untrusted
        ? wrapUntrusted(body, this.boundary, source)
        : body;
    const own = tool?.untrustedOutput === true ? stripControlTokens(body) : body;
    if (outside === undefined) return own;
    return `${own}\n${wrapUntrusted(outside, this.boundary, source)}`;
  }
}

/** The words for how a value was found (decodings.ts names them in English), per language. */
const HOW: Readonly<Record<string, MessageKey>> = {
  'as written': 'egress.asWritten',
  'URL-encoded': 'egress.urlEncoded',
  'base64-encoded': 'egress.base64',
  'hex-encoded': 'egress.hex',
};

function howIn(lang: Lang, how: string): string {
  const key = HOW[how];
  return key === undefined ? how : say(lang, { key });
}

/*
 * Values that look like secrets whoever configured them: private key blocks and
 * `NAME_KEY=` / `_TOKEN=` / `_PASSWORD=` / `_SECRET=` assignments (what `.env` files hold).
 * Configured keys are matched exactly by the redactor instead.
 */
const SECRET_SHAPES: readonly { re: RegExp; what: MessageKey }[] = [
  { re: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/, what: 'secret.privateKey' },
  {
    re: /\b[A-Za-z0-9_]*(?:KEY|TOKEN|PASSWORD|PASSWD|SECRET)\s*[=:]\s*["']?[^\s"'&]{4,}/i,
    what: 'secret.assignment',
  },
];

/** What secret-looking value `text` carries (in any decoded form), or undefined. */
function secretShapeIn(text: string, lang: Lang = 'en'): { what: string; how: string } | undefined {
  for (const { form, how } of outgoingForms(text)) {
    for (const shape of SECRET_SHAPES)
      if (shape.re.test(form)) return { what: say(lang, { key: shape.what }), how };
  }
  return undefined;
}
