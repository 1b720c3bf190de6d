/** The model-size proposal as a pure function over machine profiles, and the spec resolver. */
import { describe, expect, it } from 'vitest';
import { resolveModelSpec } from '../../src/models/catalog.js';
import { planDownload, refusal } from '../../src/models/plan.js';
import { proposeModel, type MachineProfile } from '../../src/models/propose.js';

const GB = 1_000_000_000;
const GiB = 1024 ** 3;

function machine(memGiB: number, extra: Partial<MachineProfile> = {}): MachineProfile {
  return {
    totalMemBytes: memGiB * GiB,
    freeMemBytes: memGiB * GiB * 0.6,
    threads: 8,
    freeDiskBytes: 200 * GB,
    ...extra,
  };
}

describe('proposeModel over machine profiles', () => {
  it.each([
    [4, 'small'],
    [8, 'medium'],
    [16, 'large'],
    [32, 'large'],
  ] as const)('%i GB of memory: %s', (mem, expected) => {
    expect(proposeModel(machine(mem)).proposed).toBe(expected);
  });

  it('a 4 GB machine is told why the larger models do not fit: memory', () => {
    const { fits } = proposeModel(machine(4));
    expect(fits.map((f) => [f.model.id, f.problems])).toEqual([
      ['small', []],
      ['medium', ['memory']],
      ['large', ['memory']],
    ]);
  });

  it('low disk: only what fits on the disk is proposed', () => {
    expect(proposeModel(machine(32, { freeDiskBytes: 4 * GB })).proposed).toBe('medium');
    expect(proposeModel(machine(32, { freeDiskBytes: 2.5 * GB })).proposed).toBe('small');
    const none = proposeModel(machine(32, { freeDiskBytes: 1.5 * GB }));
    expect(none.proposed).toBeUndefined();
    expect(none.fits.every((f) => f.problems.includes('disk'))).toBe(true);
  });

  it('with fewer than 4 threads the 7B model is too slow, so 3B is proposed', () => {
    expect(proposeModel(machine(32, { threads: 2 })).proposed).toBe('medium');
  });

  it('a 2 GB machine gets no proposal', () => {
    expect(proposeModel(machine(2)).proposed).toBeUndefined();
  });
});

describe('refusal before downloading', () => {
  it('names the disk and memory needed and what the machine has', () => {
    const m = machine(4, { freeDiskBytes: 3 * GB });
    const resolved = resolveModelSpec('large', {});
    if (!resolved.ok) throw new Error(resolved.message);
    const text = refusal(planDownload(resolved.source, m), m, '/h/models');
    expect(text).toContain('5.68 GB free disk in /h/models');
    expect(text).toContain('3.00 GB is free');
    expect(text).toContain('memory');
    expect(text).toContain('Choose a smaller model');
  });

  it('says nothing when the model fits', () => {
    const m = machine(16);
    const resolved = resolveModelSpec('small', {});
    if (!resolved.ok) throw new Error(resolved.message);
    expect(refusal(planDownload(resolved.source, m), m, '/h/models')).toBeUndefined();
  });
});

describe('resolveModelSpec', () => {
  it('maps catalogue names to Hugging Face, or to COGITO_MODELS_URL with the same file name', () => {
    const hf = resolveModelSpec('medium', {});
    expect(hf.ok && hf.source.url).toBe(
      'https://huggingface.co/Qwen/Qwen2.5-3B-Instruct-GGUF/resolve/main/qwen2.5-3b-instruct-q4_k_m.gguf',
    );
    const mirror = resolveModelSpec('Medium', { COGITO_MODELS_URL: 'http://127.0.0.1:9/m/' });
    expect(mirror.ok && mirror.source.url).toBe(
      'http://127.0.0.1:9/m/qwen2.5-3b-instruct-q4_k_m.gguf',
    );
  });

  it('accepts hf:<user>/<repo>/<file> and direct URLs', () => {
    const hf = resolveModelSpec('hf:bartowski/SmolLM2-GGUF/SmolLM2-Q4_K_M.gguf', {});
    expect(hf.ok && hf.source).toMatchObject({
      url: 'https://huggingface.co/bartowski/SmolLM2-GGUF/resolve/main/SmolLM2-Q4_K_M.gguf',
      file: 'SmolLM2-Q4_K_M.gguf',
    });
    const url = resolveModelSpec('https://example.org/a/b/x.gguf?download=1', {});
    expect(url.ok && url.source.file).toBe('x.gguf');
  });

  it('explains what is wrong with a bad name', () => {
    for (const [spec, words] of [
      ['huge', 'small, medium or large'],
      ['hf:Qwen/Qwen2.5-3B-Instruct-GGUF:Q4_K_M', 'hf:<user>/<repo>/<file>.gguf'],
      ['https://example.org/models/', 'does not end in a .gguf'],
      ['hf:a/b/../../x.gguf', 'does not name a file'],
      ['https://example.org/%E0%A4%A.gguf', 'does not end in a .gguf'],
    ] as const) {
      const r = resolveModelSpec(spec, {});
      expect(r.ok).toBe(false);
      expect(!r.ok && r.message).toContain(words);
    }
  });
});
