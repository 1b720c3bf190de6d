/**
 * E-mail files (.eml, RFC 822/MIME) through postal-mime, whose own limits bound what a hostile
 * mail can cost: headers past 1 MB, parts nested past 50, more than 5,000 parts are refused.
 */
import PostalMime from 'postal-mime';
import type { Address, Attachment } from 'postal-mime';
import type { Mail } from './mailMarkdown.js';
import { mailDocument, mailbox } from './mailMarkdown.js';
import type { ExtractInput, ExtractedDocument } from './types.js';
import { DocumentError } from './types.js';

const MAX_HEADERS = 1024 * 1024;

export async function extract(input: ExtractInput): Promise<ExtractedDocument> {
  let email;
  try {
    email = await PostalMime.parse(input.bytes, {
      maxHeadersSize: MAX_HEADERS,
      maxNestingDepth: 50,
      maxPartCount: 5000,
      attachmentEncoding: 'arraybuffer',
    });
  } catch (e) {
    throw parseError(e, input.name);
  }
  if (email.headers.length === 0) {
    throw new DocumentError(
      'malformed',
      `"${input.name}" is not an e-mail: it has no mail headers (From:, To:, Subject:).`,
    );
  }
  const mail: Mail = {
    from: addresses(email.from === undefined ? [] : [email.from]).join(', '),
    to: addresses(email.to ?? []),
    cc: addresses(email.cc ?? []),
    subject: (email.subject ?? '').trim(),
    date: email.date ?? '',
    text: email.text,
    html: email.html,
    attachments: email.attachments
      .filter((a) => !a.related)
      .map((a) => ({ name: a.filename ?? a.mimeType, size: sizeOf(a) })),
  };
  return mailDocument(mail, input, 'eml');
}

function addresses(list: readonly Address[]): string[] {
  return list.flatMap((a) =>
    a.group === undefined
      ? [mailbox(a.name, a.address)]
      : [`${a.name}: ${addresses(a.group).join(', ')}`],
  );
}

function sizeOf(attachment: Attachment): number {
  const content = attachment.content;
  return typeof content === 'string' ? content.length : content.byteLength;
}

function parseError(e: unknown, file: string): DocumentError {
  const code = (e as { code?: string }).code ?? '';
  const reason = e instanceof Error ? e.message : String(e);
  if (code === 'EMAXHEADERSIZE') {
    return new DocumentError(
      'too_large',
      `"${file}": its mail headers pass ${MAX_HEADERS / 1024 / 1024} MB; a real mail's are a few kilobytes, so it was not read (a broken or hostile file).`,
    );
  }
  if (code.startsWith('EMAX')) {
    return new DocumentError(
      'too_large',
      `"${file}" is built past what Cogito reads in a mail (${reason}).`,
    );
  }
  return new DocumentError('malformed', `"${file}" is not a readable e-mail (${reason}).`);
}
