/**
 * The extractor of each document kind, loaded on first use. One line a kind: a format's
 * module exports `extract` (an {@link Extractor}).
 */
import type { DocumentKind, Extractor } from './types.js';

type Loader = () => Promise<{ extract: Extractor }>;

export const EXTRACTORS: Partial<Record<DocumentKind, Loader>> = {
  pdf: () => import('./pdf.js'),
  image: () => import('./image.js'),
  audio: () => import('./media.js'),
  video: () => import('./media.js'),
};
