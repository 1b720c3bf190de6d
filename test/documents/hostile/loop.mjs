// An extractor that never returns: a parser stuck on a crafted file.
export async function extract() {
  for (;;) {
    /* spin */
  }
}
