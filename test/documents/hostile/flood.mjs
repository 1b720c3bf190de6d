// An extractor that returns far more text than any limit allows.
export async function extract() {
  const page = 'flood '.repeat(200_000);
  return {
    kind: 'pdf',
    label: 'PDF',
    meta: [['Title', 'T'.repeat(1_000_000)]],
    unitName: 'page',
    unitCount: 100,
    units: Array.from({ length: 100 }, (_, i) => ({
      number: i + 1,
      title: `Page ${i + 1}`,
      markdown: page,
    })),
    notes: [],
  };
}
