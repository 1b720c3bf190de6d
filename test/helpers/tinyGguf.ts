/**
 * Writes a tiny random-weight GGUF model that node-llama-cpp can load, so the local provider
 * is exercised for real without downloading anything.
 *
 * The model is a 2-layer llama-architecture network (~100k F32 weights, a few hundred KB)
 * with a sentencepiece-style vocabulary: control tokens, the 256 byte tokens `<0x00>`…
 * `<0xFF>` (so any text can be tokenized and generated) and printable ASCII characters. Its
 * output is noise; tests constrain it with a grammar to get a well-formed reply.
 *
 * Format (GGUF v3, little-endian): magic `GGUF`, version, tensor count, key/value count,
 * typed key/values, tensor infos (name, dims innermost first, type, offset into the data
 * section), padding to `general.alignment`, then each tensor's data at its aligned offset.
 */
import { writeFile } from 'node:fs/promises';
import { mulberry32 as prng } from './rng.js';

export interface TinyGgufOptions {
  /** Embedding width; a multiple of `heads`. Default 64. */
  embedding?: number;
  /** Transformer blocks. Default 2. */
  layers?: number;
  /** Attention heads. Default 4. */
  heads?: number;
  /** Feed-forward width. Default 128. */
  feedForward?: number;
  /** Trained context length written in the metadata. Default 4096. */
  contextLength?: number;
  /** A Jinja chat template stored as `tokenizer.chat_template`; none when omitted. */
  chatTemplate?: string;
  /** `general.name`. Default "cogito-tiny-test". */
  name?: string;
  /** Seed of the weight generator, so a file is reproducible. Default 1. */
  seed?: number;
  /**
   * Weights that make end-of-turn by far the likeliest next token, so an unconstrained
   * reply ends after a token or two (end-to-end runs without a grammar). Default false.
   */
  endsAtOnce?: boolean;
}

/** What was written, for assertions. */
export interface TinyGgufInfo {
  path: string;
  bytes: number;
  vocabSize: number;
  weights: number;
}

const ALIGNMENT = 32;

// GGUF metadata value types.
const T_UINT32 = 4;
const T_INT32 = 5;
const T_FLOAT32 = 6;
const T_STRING = 8;
const T_ARRAY = 9;
// ggml tensor type F32.
const GGML_F32 = 0;
// llama.cpp token types.
const TOKEN_NORMAL = 1;
const TOKEN_UNKNOWN = 2;
const TOKEN_CONTROL = 3;
const TOKEN_BYTE = 6;

type MetaValue =
  | { type: 'u32'; value: number }
  | { type: 'f32'; value: number }
  | { type: 'string'; value: string }
  | { type: 'strings'; value: string[] }
  | { type: 'f32s'; value: number[] }
  | { type: 'i32s'; value: number[] };

interface Tensor {
  name: string;
  /** ggml order: the innermost (contiguous) dimension first. */
  dims: number[];
  data: Float32Array;
}

/** A growable little-endian byte buffer. */
class ByteWriter {
  private buf = Buffer.alloc(1 << 16);
  length = 0;

  private ensure(extra: number): void {
    if (this.length + extra <= this.buf.length) return;
    const next = Buffer.alloc(Math.max(this.buf.length * 2, this.length + extra));
    this.buf.copy(next, 0, 0, this.length);
    this.buf = next;
  }
  u32(v: number): void {
    this.ensure(4);
    this.buf.writeUInt32LE(v, this.length);
    this.length += 4;
  }
  i32(v: number): void {
    this.ensure(4);
    this.buf.writeInt32LE(v, this.length);
    this.length += 4;
  }
  u64(v: number): void {
    this.ensure(8);
    this.buf.writeBigUInt64LE(BigInt(v), this.length);
    this.length += 8;
  }
  f32(v: number): void {
    this.ensure(4);
    this.buf.writeFloatLE(v, this.length);
    this.length += 4;
  }
  bytes(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }
  str(s: string): void {
    const b = Buffer.from(s, 'utf8');
    this.u64(b.length);
    this.bytes(b);
  }
  padTo(alignment: number): void {
    const pad = (alignment - (this.length % alignment)) % alignment;
    this.bytes(new Uint8Array(pad));
  }
  result(): Buffer {
    return this.buf.subarray(0, this.length);
  }
}

/** The vocabulary: control tokens, 256 byte tokens, then printable ASCII pieces. */
export function tinyVocabulary(): { tokens: string[]; types: number[]; scores: number[] } {
  const tokens = ['<unk>', '<s>', '</s>'];
  const types = [TOKEN_UNKNOWN, TOKEN_CONTROL, TOKEN_CONTROL];
  for (let b = 0; b < 256; b += 1) {
    tokens.push(`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`);
    types.push(TOKEN_BYTE);
  }
  // Sentencepiece marks a leading space with U+2581; the rest are single printable chars.
  const pieces = ['\u2581', ...Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i))];
  for (const p of pieces) {
    if (p === ' ') continue; // spaces are written as U+2581 in sentencepiece vocabularies
    tokens.push(p);
    types.push(TOKEN_NORMAL);
  }
  const scores = tokens.map((_, i) => -i);
  return { tokens, types, scores };
}

function writeMeta(w: ByteWriter, key: string, v: MetaValue): void {
  w.str(key);
  switch (v.type) {
    case 'u32':
      w.u32(T_UINT32);
      w.u32(v.value);
      break;
    case 'f32':
      w.u32(T_FLOAT32);
      w.f32(v.value);
      break;
    case 'string':
      w.u32(T_STRING);
      w.str(v.value);
      break;
    case 'strings':
      w.u32(T_ARRAY);
      w.u32(T_STRING);
      w.u64(v.value.length);
      for (const s of v.value) w.str(s);
      break;
    case 'f32s':
      w.u32(T_ARRAY);
      w.u32(T_FLOAT32);
      w.u64(v.value.length);
      for (const x of v.value) w.f32(x);
      break;
    case 'i32s':
      w.u32(T_ARRAY);
      w.u32(T_INT32);
      w.u64(v.value.length);
      for (const x of v.value) w.i32(x);
      break;
  }
}

const EOS_ID = 2;

/**
 * Every token's embedding gets a large constant in dimension 0, which survives the small
 * random layers, and only the end-of-turn token's output row reads that dimension: its
 * logit then dwarfs every other token's.
 */
function steerToEnd(embd: Float32Array, out: Float32Array, nEmbd: number, nVocab: number): void {
  for (let v = 0; v < nVocab; v += 1) {
    embd[v * nEmbd] = 20;
    out[v * nEmbd] = v === EOS_ID ? 10 : 0;
  }
}

/** Builds the GGUF bytes in memory. */
export function buildTinyGguf(opts: TinyGgufOptions = {}): {
  bytes: Buffer;
  vocabSize: number;
  weights: number;
} {
  const nEmbd = opts.embedding ?? 64;
  const nLayer = opts.layers ?? 2;
  const nHead = opts.heads ?? 4;
  const nFf = opts.feedForward ?? 128;
  const vocab = tinyVocabulary();
  const nVocab = vocab.tokens.length;
  const random = prng(opts.seed ?? 1);

  const randomTensor = (name: string, dims: number[], scale = 0.2): Tensor => {
    const size = dims.reduce((a, b) => a * b, 1);
    const data = new Float32Array(size);
    for (let i = 0; i < size; i += 1) data[i] = (random() * 2 - 1) * scale;
    return { name, dims, data };
  };
  const ones = (name: string, n: number): Tensor => ({
    name,
    dims: [n],
    data: new Float32Array(n).fill(1),
  });

  const embeddings = randomTensor('token_embd.weight', [nEmbd, nVocab]);
  const output = randomTensor('output.weight', [nEmbd, nVocab]);
  if (opts.endsAtOnce) steerToEnd(embeddings.data, output.data, nEmbd, nVocab);
  const tensors: Tensor[] = [embeddings, ones('output_norm.weight', nEmbd), output];
  for (let i = 0; i < nLayer; i += 1) {
    const p = `blk.${i}.`;
    tensors.push(
      ones(`${p}attn_norm.weight`, nEmbd),
      randomTensor(`${p}attn_q.weight`, [nEmbd, nEmbd]),
      randomTensor(`${p}attn_k.weight`, [nEmbd, nEmbd]),
      randomTensor(`${p}attn_v.weight`, [nEmbd, nEmbd]),
      randomTensor(`${p}attn_output.weight`, [nEmbd, nEmbd]),
      ones(`${p}ffn_norm.weight`, nEmbd),
      randomTensor(`${p}ffn_gate.weight`, [nEmbd, nFf]),
      randomTensor(`${p}ffn_down.weight`, [nFf, nEmbd]),
      randomTensor(`${p}ffn_up.weight`, [nEmbd, nFf]),
    );
  }

  const meta: [string, MetaValue][] = [
    ['general.architecture', { type: 'string', value: 'llama' }],
    ['general.name', { type: 'string', value: opts.name ?? 'cogito-tiny-test' }],
    ['general.alignment', { type: 'u32', value: ALIGNMENT }],
    ['llama.context_length', { type: 'u32', value: opts.contextLength ?? 4096 }],
    ['llama.embedding_length', { type: 'u32', value: nEmbd }],
    ['llama.block_count', { type: 'u32', value: nLayer }],
    ['llama.feed_forward_length', { type: 'u32', value: nFf }],
    ['llama.attention.head_count', { type: 'u32', value: nHead }],
    ['llama.attention.head_count_kv', { type: 'u32', value: nHead }],
    ['llama.attention.layer_norm_rms_epsilon', { type: 'f32', value: 1e-5 }],
    ['llama.rope.dimension_count', { type: 'u32', value: nEmbd / nHead }],
    ['llama.vocab_size', { type: 'u32', value: nVocab }],
    ['tokenizer.ggml.model', { type: 'string', value: 'llama' }],
    ['tokenizer.ggml.tokens', { type: 'strings', value: vocab.tokens }],
    ['tokenizer.ggml.scores', { type: 'f32s', value: vocab.scores }],
    ['tokenizer.ggml.token_type', { type: 'i32s', value: vocab.types }],
    ['tokenizer.ggml.unknown_token_id', { type: 'u32', value: 0 }],
    ['tokenizer.ggml.bos_token_id', { type: 'u32', value: 1 }],
    ['tokenizer.ggml.eos_token_id', { type: 'u32', value: 2 }],
  ];
  if (opts.chatTemplate !== undefined) {
    meta.push(['tokenizer.chat_template', { type: 'string', value: opts.chatTemplate }]);
  }

  const w = new ByteWriter();
  w.bytes(Buffer.from('GGUF', 'ascii'));
  w.u32(3);
  w.u64(tensors.length);
  w.u64(meta.length);
  for (const [key, value] of meta) writeMeta(w, key, value);

  // Tensor infos: offsets are relative to the (aligned) start of the data section.
  let offset = 0;
  const offsets: number[] = [];
  for (const t of tensors) {
    w.str(t.name);
    w.u32(t.dims.length);
    for (const d of t.dims) w.u64(d);
    w.u32(GGML_F32);
    w.u64(offset);
    offsets.push(offset);
    offset += t.data.byteLength;
    offset += (ALIGNMENT - (offset % ALIGNMENT)) % ALIGNMENT;
  }
  w.padTo(ALIGNMENT);
  const dataStart = w.length;
  tensors.forEach((t, i) => {
    const pad = dataStart + (offsets[i] ?? 0) - w.length;
    if (pad > 0) w.bytes(new Uint8Array(pad));
    w.bytes(new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength));
  });

  const weights = tensors.reduce((n, t) => n + t.data.length, 0);
  return { bytes: w.result(), vocabSize: nVocab, weights };
}

/** Writes the tiny model to `path` (a `.gguf` file in a temporary folder). */
export async function writeTinyGguf(
  path: string,
  opts: TinyGgufOptions = {},
): Promise<TinyGgufInfo> {
  const { bytes, vocabSize, weights } = buildTinyGguf(opts);
  await writeFile(path, bytes);
  return { path, bytes: bytes.length, vocabSize, weights };
}
