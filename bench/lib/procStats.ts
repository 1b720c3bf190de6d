/** Open file descriptors and sockets of a process, read from /proc (Linux). */
import fs from 'node:fs';

export interface FdCount {
  fds: number;
  sockets: number;
}

/** How many fds `pid` has open, and how many of them are sockets (`socket:[…]`). */
export function fdsOf(pid: number | 'self'): FdCount {
  const dir = `/proc/${pid}/fd`;
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return { fds: NaN, sockets: NaN };
  }
  let sockets = 0;
  for (const n of names) {
    try {
      if (fs.readlinkSync(`${dir}/${n}`).startsWith('socket:')) sockets += 1;
    } catch {
      // Closed between the listing and the readlink (the listing's own fd, for one).
    }
  }
  return { fds: names.length, sockets };
}
