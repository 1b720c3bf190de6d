/**
 * The extractor of each document kind, loaded on first use. One line a kind: a format's
 * module exports `extract` (an {@link Extractor}).
 */
import type { DocumentKind, Extractor } from './types.js';

type Loader = () => Promise<{ extract: Extractor }>;

export const EXTRACTORS: Partial<Record<DocumentKind, Loader>> = {
  // pdf: () => import('./pdf.js'),
  epub: () => import('./epub.js'),
  feed: () => import('./feed.js'),
  ipynb: () => import('./ipynb.js'),
  eml: () => import('./eml.js'),
  msg: () => import('./msg.js'),
  zip: () => import('./archive.js'),
  tar: () => import('./archive.js'),
  gzip: () => import('./archive.js'),
};
