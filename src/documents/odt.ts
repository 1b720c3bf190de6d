/**
 * OpenDocument text (.odt): `content.xml`'s body through the ODF text walker, with the
 * metadata of `meta.xml` and the page count LibreOffice stored when it last saved.
 */
import { OdfText, listStylesOf } from './odfText.js';
import { packageMeta } from './officeMeta.js';
import { wordDocument } from './wordParts.js';
import type { ExtractInput, ExtractedDocument } from './types.js';
import { DocumentError } from './types.js';
import { descendants, kid, parseXml } from './xmlTree.js';
import { openPackage } from './zipParts.js';

export async function extract(input: ExtractInput): Promise<ExtractedDocument> {
  const parts = openPackage(input, 'OpenDocument text');
  const content = parts.requiredText('content.xml');
  const root = parseXml(content, 'content.xml', input.name);
  const stylesXml = parts.text('styles.xml');
  const styles =
    stylesXml === undefined ? undefined : parseXml(stylesXml, 'styles.xml', input.name);
  const text = kid(kid(root, 'office:body'), 'office:text');
  if (!text) {
    throw new DocumentError(
      'malformed',
      `"${input.name}" has no text body (content.xml has no office:text); it may be another kind of OpenDocument file.`,
    );
  }
  const markdown = new OdfText(listStylesOf(root, styles)).markdown(text);
  const meta = packageMeta(parts, input.name);
  const metaXml = parts.text('meta.xml');
  const stats =
    metaXml && descendants(parseXml(metaXml, 'meta.xml', input.name), 'meta:document-statistic')[0];
  const pages = stats ? stats.attrs['meta:page-count'] : undefined;
  if (pages && Number(pages) > 0) meta.push(['Pages (when last saved)', pages]);
  const notes = markdown ? [] : ['The document has no text.'];
  return wordDocument(input, { kind: 'odt', label: 'OpenDocument text', meta }, markdown, notes);
}
