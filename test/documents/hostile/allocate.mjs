// An extractor that allocates without bound: a decompression bomb in a parser.
export async function extract() {
  const hoard = [];
  for (;;) hoard.push(new Array(100_000).fill({ page: hoard.length }));
}
