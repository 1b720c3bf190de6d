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
});
