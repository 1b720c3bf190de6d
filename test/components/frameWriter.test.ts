import { EventEmitter } from 'node:events';
import { describe, expect, test } from 'vitest';
import { BSU, ESU, FrameWriter, diffRows } from '../../components/terminal/frameWriter.js';

class Terminal extends EventEmitter {
  columns = 20;
  rows = 6;
  writes: string[] = [];
  write(s: string): boolean {
    this.writes.push(s);
    return true;
  }
}

describe('the frame writer', () => {
  test('the first frame paints every row; later ones only the rows that changed', () => {
    const t = new Terminal();
    const w = new FrameWriter(t);
    w.write('status\nhello\n\ninput');
    expect(t.writes).toHaveLength(1);
    expect(t.writes[0]).toBe(
      `${BSU}\x1b[?25l\x1b[1;1Hstatus\x1b[K\x1b[2;1Hhello\x1b[K\x1b[3;1H\x1b[K\x1b[4;1Hinput\x1b[K${ESU}`,
    );
    w.write('status\nhello world\n\ninput');
    expect(t.writes[1]).toBe(`${BSU}\x1b[2;1Hhello world\x1b[K${ESU}`);
    // The same frame again writes nothing at all.
    w.write('status\nhello world\n\ninput');
    expect(t.writes).toHaveLength(2);
  });

  test('every frame is one write, wrapped in synchronized-output markers', () => {
    const t = new Terminal();
    const w = new FrameWriter(t);
    for (let i = 0; i < 50; i++) w.write(`status ${i}\n${'x'.repeat(i % 7)}\ninput`);
    for (const s of t.writes) {
      expect(s.startsWith(BSU)).toBe(true);
      expect(s.endsWith(ESU)).toBe(true);
      expect(s.indexOf(BSU, 1)).toBe(-1);
    }
  });

  test('a shorter frame clears the rows it no longer uses', () => {
    expect(diffRows(['a', 'b', 'c'], ['a'])).toBe('\x1b[2;1H\x1b[K\x1b[3;1H\x1b[K');
  });

  test('after a resize or a wipe, the next frame is painted whole', () => {
    const t = new Terminal();
    const w = new FrameWriter(t);
    w.write('a\nb');
    t.columns = 30;
    w.write('a\nb');
    expect(t.writes[1]).toContain('\x1b[2J');
    expect(t.writes[1]).toContain('\x1b[1;1Ha');
    w.invalidate();
    w.write('a\nb');
    expect(t.writes[2]).toContain('\x1b[1;1Ha\x1b[K\x1b[2;1Hb');
    expect(t.writes[2]).not.toContain('\x1b[2J');
  });

  test('resizes of the real terminal reach Ink through it, until closed', () => {
    const t = new Terminal();
    const w = new FrameWriter(t);
    let heard = 0;
    w.on('resize', () => heard++);
    t.emit('resize');
    w.close();
    t.emit('resize');
    expect(heard).toBe(1);
    expect(t.listenerCount('resize')).toBe(0);
  });

  test('patch paints rows at once only over the rows the screen shows, and the next frame skips them', () => {
    const t = new Terminal();
    const w = new FrameWriter(t);
    // Nothing on screen yet: nothing to paint over.
    expect(w.patch(2, ['› a'], ['› ab'])).toBe(false);
    w.write('status\npane\n› a\nhints');
    expect(w.patch(2, ['› a'], ['› ab'])).toBe(true);
    expect(t.writes.at(-1)).toBe(`${BSU}\x1b[3;1H› ab\x1b[K${ESU}`);
    // The frame that follows draws the same row: only what else changed is written.
    w.write('status\npane\n› ab\nhints 2');
    expect(t.writes.at(-1)).toBe(`${BSU}\x1b[4;1Hhints 2\x1b[K${ESU}`);
    // Rows that are not what the caller expects (a frame moved them) are left alone.
    const writes = t.writes.length;
    expect(w.patch(2, ['› a'], ['› abc'])).toBe(false);
    expect(w.patch(3, ['› ab'], ['› abc'])).toBe(false);
    expect(w.patch(3, ['hints 2', ''], ['x', 'y'])).toBe(false); // past the frame's end
    expect(t.writes).toHaveLength(writes);
    // A frame that draws the row differently from the paint writes it again.
    expect(w.patch(2, ['› ab'], ['› abX'])).toBe(true);
    w.write('status\npane\n› ab!\nhints 2');
    expect(t.writes.at(-1)).toBe(`${BSU}\x1b[3;1H› ab!\x1b[K${ESU}`);
  });

  test('patch paints nothing once the terminal changed size (a whole frame is due)', () => {
    const t = new Terminal();
    const w = new FrameWriter(t);
    w.write('a\n› x');
    t.columns = 30;
    expect(w.patch(1, ['› x'], ['› xy'])).toBe(false);
    expect(t.writes).toHaveLength(1);
  });
});
