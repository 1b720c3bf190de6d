/**
 * The extractor of each document kind, loaded on first use. One line a kind: a format's
 * module exports `extract` (an {@link Extractor}).
 */
import type { DocumentKind, Extractor } from './types.js';

type Loader = () => Promise<{ extract: Extractor }>;

export const EXTRACTORS: Partial<Record<DocumentKind, Loader>> = {
  html: () => import('./html.js'),
  docx: () => import('./docx.js'),
  odt: () => import('./odt.js'),
  rtf: () => import('./rtf.js'),
  doc: () => import('./doc.js'),
  pptx: () => import('./pptx.js'),
  odp: () => import('./odp.js'),
  xlsx: () => import('./sheets.js'),
  xls: () => import('./sheets.js'),
  ods: () => import('./sheets.js'),
  csv: () => import('./csv.js'),
  tsv: () => import('./csv.js'),
  epub: () => import('./epub.js'),
  feed: () => import('./feed.js'),
  ipynb: () => import('./ipynb.js'),
  eml: () => import('./eml.js'),
  msg: () => import('./msg.js'),
  zip: () => import('./archive.js'),
  tar: () => import('./archive.js'),
  gzip: () => import('./archive.js'),
  pdf: () => import('./pdf.js'),
  image: () => import('./image.js'),
  audio: () => import('./media.js'),
  video: () => import('./media.js'),
};
