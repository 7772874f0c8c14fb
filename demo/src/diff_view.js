// diff_view.js - a World.stateDiff as an HTML table (the perturb check and
// the native peer's divergence): per item the slot, the component (id,
// size) and both sides' bytes in hex and as int32 / Q16.16 words.

export function bytesHex(b) {
  return b.length === 0 ? '(absent)' : Array.from(b, (x) => x.toString(16).padStart(2, '0')).join(' ');
}
export function words(b) {
  if (b.length === 0 || b.length % 4 !== 0) return '';
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const out = [];
  for (let i = 0; i < b.length; i += 4) out.push(v.getInt32(i, true));
  return ' = [' + out.map((w) => `${w} (${(w / 65536).toFixed(4)})`).join(', ') + ']';
}
export const esc = (t) => String(t).replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]);

/** The items of `diff` as a table; rows have class diff-item. */
export function diffTable(diff) {
  let html = '<table class="diffitems"><tr><th>slot</th><th>component</th><th>bytes</th></tr>';
  for (const it of diff.items) {
    const comp = it.componentId === 0 ? '(presence)' : `${it.component} (#${it.componentId}, ${it.size} B)`;
    html += `<tr class="diff-item"><td>${it.slot}</td><td>${esc(comp)}</td><td>`
      + `<div class="a">A ${esc(bytesHex(it.bytesA))}${esc(words(it.bytesA))}</div>`
      + `<div class="b">B ${esc(bytesHex(it.bytesB))}${esc(words(it.bytesB))}</div></td></tr>`;
  }
  return `${html}</table>`;
}

