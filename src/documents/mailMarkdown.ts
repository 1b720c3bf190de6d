/**
 * One e-mail as the model reads it, whether it came from an .eml or an Outlook .msg: the
 * envelope up front (from, to, cc, date, subject, attachments), then one unit with the body
 * as Markdown (an HTML body converted, as it is the richer one) and the attachments by name
 * and size. Attachments themselves are never opened here.
 */
import { formatSize } from './inflate.js';
import { htmlToMarkdown } from './markup.js';
import type { DocumentKind, ExtractInput, ExtractedDocument } from './types.js';

export interface Mail {
  readonly from: string;
  readonly to: readonly string[];
  readonly cc: readonly string[];
  readonly subject: string;
  readonly date: string;
  readonly text?: string;
  readonly html?: string;
  readonly attachments: readonly { readonly name: string; readonly size: number }[];
}

/** `Ada Lovelace <ada@example.com>`, or whichever half is known. */
export function mailbox(name: string | undefined, address: string | undefined): string {
  const n = (name ?? '').trim();
  const a = (address ?? '').trim();
  if (n && a && n !== a) return `${n} <${a}>`;
  return n || a;
}

export function mailDocument(
  mail: Mail,
  input: ExtractInput,
  kind: Extract<DocumentKind, 'eml' | 'msg'>,
  notes: readonly string[] = [],
): ExtractedDocument {
  const meta: [string, string][] = [];
  const add = (label: string, value: string): void => {
    if (value) meta.push([label, value]);
  };
  add('From', mail.from);
  add('To', mail.to.join(', '));
  add('Cc', mail.cc.join(', '));
  add('Date', mail.date);
  add('Subject', mail.subject);
  if (mail.attachments.length > 0) add('Attachments', String(mail.attachments.length));
  const body = mail.html?.trim()
    ? htmlToMarkdown(mail.html)
    : (mail.text ?? '').replace(/\r\n/g, '\n').trim();
  const attachments = mail.attachments.map(
    (a) => `- ${a.name || '(unnamed)'} (${formatSize(a.size)})`,
  );
  let markdown = [
    body || '(no text in the body)',
    ...(attachments.length > 0 ? ['**Attachments:**', attachments.join('\n')] : []),
  ].join('\n\n');
  const allNotes = [...notes];
  if (markdown.length > input.limits.maxChars) {
    markdown = markdown.slice(0, input.limits.maxChars);
    allNotes.push(`the message was cut at ${input.limits.maxChars} characters (the output cap).`);
  }
  return {
    kind,
    label: kind === 'msg' ? 'Outlook e-mail' : 'e-mail',
    meta,
    unitName: 'message',
    unitCount: 1,
    units: [{ number: 1, title: mail.subject || '(no subject)', markdown }],
    notes: allNotes,
  };
}
