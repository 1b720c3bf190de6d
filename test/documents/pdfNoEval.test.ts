/**
 * The attack: a PDF whose page is painted by a PostScript calculator function (which pdf.js
 * compiles into JavaScript with `new Function` when code evaluation is allowed) and which asks
 * to run JavaScript when opened. Reading it must construct no function from the file's code
 * and run none of its script.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { extract } from '../../src/documents/pdf.js';
import { DEFAULT_LIMITS } from '../../src/documents/types.js';

/** A PDF of numbered objects, with a correct cross-reference table. */
function pdfOf(objects: readonly string[]): Uint8Array {
  let body = '%PDF-1.7\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(body);
}

const stream = (dict: string, data: string): string =>
  `<< ${dict} /Length ${data.length} >>\nstream\n${data}\nendstream`;

const HOSTILE = pdfOf([
  '<< /Type /Catalog /Pages 2 0 R /OpenAction 6 0 R >>',
  '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
  '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Resources << /Shading << /Sh1 5 0 R >> >> /Contents 4 0 R >>',
  stream('', '/Sh1 sh'),
  '<< /ShadingType 2 /ColorSpace /DeviceRGB /Coords [0 0 200 0] /Function 7 0 R >>',
  '<< /S /JavaScript /JS (globalThis.__cogitoPdfScriptRan = true) >>',
  stream('/FunctionType 4 /Domain [0 1] /Range [0 1 0 1 0 1]', '{ dup dup 0.5 mul }'),
]);

const RealFunction = globalThis.Function;

afterEach(() => {
  globalThis.Function = RealFunction;
});

describe('PDF code evaluation', () => {
  it('builds no function from the file and runs none of its JavaScript', async () => {
    const compiled: string[] = [];
    globalThis.Function = new Proxy(RealFunction, {
      construct(target, args: string[]) {
        // pdf.js's feature probe is `new Function("")`; only code from the file has a body.
        if ((args.at(-1) ?? '').trim().length > 0) compiled.push(args.at(-1) ?? '');
        return Reflect.construct(target, args) as object;
      },
    });
    const doc = await extract({
      bytes: HOSTILE,
      name: 'hostile.pdf',
      options: { ocr: false },
      limits: DEFAULT_LIMITS,
    });
    expect(doc.unitCount).toBe(1);
    expect(compiled).toEqual([]);
    expect((globalThis as { __cogitoPdfScriptRan?: boolean }).__cogitoPdfScriptRan).toBeUndefined();
  });
});
