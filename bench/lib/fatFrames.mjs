// A stand-in program for bench/tornFrames.ts: full-screen frames of about `bytes` each, one
// write per frame inside the sync markers, one every `ms` milliseconds, in the same row
// format as Cogito's frame writer. It shows at which frame size a terminal tears frames
// that are written whole, and that the torn-frame check sees it when it happens.
import process from 'node:process';
import { setInterval } from 'node:timers';

const [bytes = 8192, ms = 20, rows = 40] = process.argv.slice(2).map(Number);
let n = 0;
function frame() {
  const perRow = Math.floor((bytes - 16) / (rows - 1));
  let out = '\x1b[?2026h';
  for (let r = 1; r < rows; r++) {
    const head = `\x1b[${r};1H${n}:${r} `;
    // '─' is three bytes in UTF-8: 120 columns of it make 360 bytes.
    const fill = Math.max(0, Math.floor((perRow - head.length - 3) / 3));
    out += `${head}${'─'.repeat(Math.min(110, fill))}\x1b[K`;
  }
  process.stdout.write(`${out}\x1b[?2026l`);
  n += 1;
}
process.stdin.setRawMode?.(true);
process.stdin.on('data', (d) => d.includes(3) && process.exit(0));
setInterval(frame, ms);
