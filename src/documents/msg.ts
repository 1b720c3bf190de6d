/**
 * Outlook messages (.msg, a Compound File of MAPI properties) through @kenjiuno/msgreader:
 * sender, recipients by kind, times, subject, the HTML body (else the plain one), attachments
 * by name and size. The reader is given its own copy of the bytes: it reads the whole
 * ArrayBuffer behind a view, so a view into a larger buffer would be read past its end.
 */
import * as msgreader from '@kenjiuno/msgreader';
import type { FieldsData } from '@kenjiuno/msgreader';

type MsgReaderClass = new (buffer: ArrayBuffer) => { getFileData(): FieldsData };
import { checkCompoundFile } from './cfbCheck.js';
import type { Mail } from './mailMarkdown.js';
import { mailDocument, mailbox } from './mailMarkdown.js';
import type { ExtractInput, ExtractedDocument } from './types.js';
import { DocumentError } from './types.js';

/** The class, wherever CommonJS interop put it (Node: `default.default`; a bundler: `default`). */
const MsgReader: MsgReaderClass = (() => {
  const outer = (msgreader as unknown as { default: unknown }).default;
  const inner = (outer as { default?: unknown } | undefined)?.default;
  return (typeof inner === 'function' ? inner : outer) as MsgReaderClass;
})();

/** Every Compound File (and so every .msg) starts with these bytes. */
const CFB_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

export async function extract(input: ExtractInput): Promise<ExtractedDocument> {
  if (!CFB_MAGIC.every((b, i) => input.bytes[i] === b)) {
    throw new DocumentError(
      'malformed',
      `"${input.name}" is not an Outlook message (.msg): it is not a Compound File, which every .msg is.`,
    );
  }
  checkCompoundFile(input.bytes, input.name);
  let data: FieldsData;
  try {
    data = new MsgReader(new Uint8Array(input.bytes).buffer).getFileData();
  } catch (e) {
    const reason = e instanceof Error ? e.message : String(e);
    throw new DocumentError(
      'malformed',
      `"${input.name}" is a damaged Outlook message: it could not be read (${reason}); it may be truncated.`,
    );
  }
  if (data.error !== undefined || data.dataType !== 'msg') {
    throw new DocumentError(
      'malformed',
      `"${input.name}" is not an Outlook message (.msg): ${data.error ?? `it holds a ${data.dataType ?? 'unknown'} item`}.`,
    );
  }
  const recipients = (type: string): string[] =>
    (data.recipients ?? [])
      .filter((r) => (r.recipType ?? 'to') === type)
      .map((r) => mailbox(str(r.name), str(r.smtpAddress) || str(r.email)));
  const notes: string[] = [];
  const html = htmlOf(data);
  if (!html && !data.body && data.compressedRtf !== undefined) {
    notes.push('the body is stored only as RTF, which Cogito does not read in a .msg.');
  }
  const mail: Mail = {
    from: mailbox(str(data.senderName), str(data.senderSmtpAddress) || str(data.senderEmail)),
    to: recipients('to'),
    cc: recipients('cc'),
    subject: str(data.subject).trim(),
    date: str(data.messageDeliveryTime) || str(data.clientSubmitTime),
    text: str(data.body),
    html,
    attachments: (data.attachments ?? []).map((a) => ({
      name: str(a.fileName) || str(a.fileNameShort) || str(a.name),
      size: typeof a.contentLength === 'number' ? a.contentLength : 0,
    })),
  };
  return mailDocument(mail, input, 'msg', notes);
}

/** The HTML body: a string, or the bytes of PidTagHtml (UTF-8 unless its meta says otherwise). */
function htmlOf(data: FieldsData): string | undefined {
  if (str(data.bodyHtml)) return str(data.bodyHtml);
  if (!(data.html instanceof Uint8Array)) return undefined;
  const head = new TextDecoder('latin1').decode(data.html.subarray(0, 1024));
  const charset = /charset=["']?([\w-]+)/i.exec(head)?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(data.html);
  } catch {
    return new TextDecoder().decode(data.html);
  }
}

/** A field's value when it is text: a damaged file can give any type where text belongs. */
function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
