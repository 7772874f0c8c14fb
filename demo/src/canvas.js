// canvas.js - the demo's two canvases: the world (its sprite table by colour,
// interpolated between the last two ticks, the attractor and the perturbed
// entity ringed) and the frame-time graph. Pure drawing: main.js decides
// what is shown.

/**
 * Draws the world view, or clears the canvas when `view` is null. view:
 * { extent: {x0, y0, size}, sprites: SpriteTable (sprites.js), alpha: 0..1,
 *   the fraction of a tick elapsed, attractor: [x, y] | null, perturbed: entity | null }.
 * A sprite that changed at the table's tick is drawn between where it was
 * and where it is (not across a wrap); the others where they are.
 */
export function drawWorld(c, view) {
  const g = c.getContext('2d');
  g.fillStyle = '#0a0d10';
  g.fillRect(0, 0, c.width, c.height);
  if (view === null) return;
  const { x0, y0, size } = view.extent;
  const scale = c.width / size;
  const alpha = view.alpha;
  const colors = ['#5fb0ff', '#8be28b', '#ffcf5f'];
  const table = view.sprites;
  const r = table.sprites.size > 200 ? 1.6 : 5;
  for (let k = 0; k < 3; k++) {
    g.fillStyle = colors[k];
    g.beginPath();
    for (const p of table.sprites.values()) {
      if (p.k !== k) continue;
      let x = p.x;
      let y = p.y;
      if (p.at === table.tick && Math.abs(p.x - p.px) < size / 2 && Math.abs(p.y - p.py) < size / 2) {
        x = p.px + (p.x - p.px) * alpha;
        y = p.py + (p.y - p.py) * alpha;
      }
      const px = (x - x0) * scale;
      const py = c.height - (y - y0) * scale;
      g.moveTo(px + r, py);
      g.arc(px, py, r, 0, Math.PI * 2);
    }
    g.fill();
  }
  const a = view.attractor;
  if (a) {
    g.strokeStyle = '#ff6b6b';
    g.beginPath();
    g.arc((a[0] - x0) * scale, c.height - (a[1] - y0) * scale, 8, 0, Math.PI * 2);
    g.stroke();
  }
  if (view.perturbed !== null) {
    const p = table.sprites.get(view.perturbed);
    if (p) {
      g.strokeStyle = '#ff4d4d';
      g.lineWidth = 2;
      g.beginPath();
      g.arc((p.x - x0) * scale, c.height - (p.y - y0) * scale, 10, 0, Math.PI * 2);
      g.stroke();
      g.lineWidth = 1;
    }
  }
}

/**
 * The last frames' durations (ms), with the 60 Hz line; `resimTimes` (same
 * length, optional): the rollback re-simulation time within each frame.
 */
export function drawFrameGraph(c, frameTimes, resimTimes = null) {
  const g = c.getContext('2d');
  g.fillStyle = '#0a0d10';
  g.fillRect(0, 0, c.width, c.height);
  const maxMs = 50;
  const y = (ms) => c.height - Math.min(1, ms / maxMs) * c.height;
  g.strokeStyle = '#3a434e';
  g.beginPath(); g.moveTo(0, y(1000 / 60)); g.lineTo(c.width, y(1000 / 60)); g.stroke();
  g.strokeStyle = '#5fb0ff';
  g.beginPath();
  const n = frameTimes.length;
  for (let i = 0; i < n; i++) {
    const px = (i / 300) * c.width;
    if (i === 0) g.moveTo(px, y(frameTimes[i])); else g.lineTo(px, y(frameTimes[i]));
  }
  g.stroke();
  if (resimTimes !== null && resimTimes.some((v) => v > 0)) {
    g.fillStyle = '#ff9f43';
    for (let i = 0; i < resimTimes.length; i++) {
      if (resimTimes[i] <= 0) continue;
      const px = (i / 300) * c.width;
      g.fillRect(px, y(resimTimes[i]), Math.max(1, c.width / 300), c.height - y(resimTimes[i]));
    }
    const last = resimTimes.slice(-60);
    g.font = '10px monospace';
    g.fillText(`re-sim ${Math.max(...last).toFixed(2)} ms max (1 s)`, c.width - 150, 10);
  }
  g.fillStyle = '#8a96a3';
  g.font = '10px monospace';
  g.fillText('16.7 ms', 2, y(1000 / 60) - 2);
}
