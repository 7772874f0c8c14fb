// The swarm/input scenarios' per-tick payload: the attractor point as two
// little-endian Q16.16 integers (what the demo records from the pointer).

/** The 8-byte payload for the attractor at (x, y). */
export function attractor(x: number, y: number): Uint8Array {
  const b = new Uint8Array(8);
  const v = new DataView(b.buffer);
  v.setInt32(0, Math.round(x * 65536), true);
  v.setInt32(4, Math.round(y * 65536), true);
  return b;
}
