// A stand-in ZIP reader for the framework's tests (the real one is another module): lists
// members and returns a member's bytes, looked up by name inside the archive only.
import { Buffer } from 'node:buffer';
import { inflateRawSync } from 'node:zlib';

function entries(bytes) {
  const buf = Buffer.from(bytes);
  const eocd = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = buf.readUInt16LE(eocd + 10);
  let at = buf.readUInt32LE(eocd + 16);
  const out = [];
  for (let i = 0; i < count; i++) {
    const method = buf.readUInt16LE(at + 10);
    const size = buf.readUInt32LE(at + 20);
    const nameLength = buf.readUInt16LE(at + 28);
    const skip = buf.readUInt16LE(at + 30) + buf.readUInt16LE(at + 32);
    const local = buf.readUInt32LE(at + 42);
    const name = buf.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    out.push({ name, method, size, local });
    at += 46 + nameLength + skip;
  }
  return { buf, list: out };
}

export async function extract(input) {
  const { list } = entries(input.bytes);
  return {
    kind: 'zip',
    label: 'ZIP archive',
    meta: [['Members', String(list.length)]],
    unitName: 'member',
    unitCount: 1,
    units: [
      {
        number: 1,
        title: 'Members',
        markdown: list.map((e) => `- ${e.name} (${e.size} B)`).join('\n'),
      },
    ],
    notes: [],
  };
}

export async function memberBytes(input) {
  const { buf, list } = entries(input.bytes);
  const entry = list.find((e) => e.name === input.options.member);
  if (entry === undefined) {
    const error = new Error(`${input.name} has no member "${input.options.member}".`);
    error.name = 'DocumentError';
    throw Object.assign(error, { kind: 'unsupported' });
  }
  const start =
    entry.local + 30 + buf.readUInt16LE(entry.local + 26) + buf.readUInt16LE(entry.local + 28);
  const data = buf.subarray(start, start + buf.readUInt32LE(entry.local + 18));
  return new Uint8Array(entry.method === 8 ? inflateRawSync(data) : data);
}
