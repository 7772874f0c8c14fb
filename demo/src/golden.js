// golden.js - a scenario's golden stream (golden/<name>.txt: `<tick> <hash>`
// lines written by native laige-detcheck, or by Node for ts-orbits), as
// { hashes } or { error } with the reason in plain words.

/** Fetches and validates golden/<name>.txt. */
export async function loadGolden(name) {
  try {
    const r = await fetch(`golden/${name}.txt`, { cache: 'no-store' });
    if (!r.ok) return { error: `golden stream missing: golden/${name}.txt (HTTP ${r.status}). Run scripts/run.sh (it copies tests/golden into the demo).` };
    const text = await r.text();
    const lines = text.trim().split('\n').map((l) => l.trim());
    const hashes = [];
    for (const [i, l] of lines.entries()) {
      const m = /^(\d+) ([0-9a-f]{16})$/.exec(l);
      if (m === null || Number(m[1]) !== i) return { error: `golden/${name}.txt is malformed at line ${i + 1}: ${JSON.stringify(l.slice(0, 60))}` };
      hashes.push(m[2]);
    }
    return { hashes };
  } catch (e) {
    return { error: `golden stream golden/${name}.txt could not be fetched: ${e.message}` };
  }
}
