// canvas.js - the demo's two canvases: the world (entities by colour,
// interpolated between the last two ticks, the attractor and the perturbed
// entity ringed) and the frame-time graph. Pure drawing: main.js decides
// what is shown.

/**
 * Draws the world view, or clears the canvas when `view` is null. view:
 * { extent: {x0, y0, size}, cur, prev: Map entity -> [x, y, colour index],
 *   alpha: 0..1 between prev and cur, attractor: [x, y] | null, perturbed: entity | null }.
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
  const r = view.cur.size > 200 ? 1.6 : 5;
  for (let k = 0; k < 3; k++) {
    g.fillStyle = colors[k];
    g.beginPath();
    for (const [e, p] of view.cur) {
      if (p[2] !== k) continue;
      let x = p[0];
      let y = p[1];
      const q = view.prev.get(e);
      // Interpolate between the last two ticks (not across a wrap).
      if (q !== undefined && Math.abs(p[0] - q[0]) < size / 2 && Math.abs(p[1] - q[1]) < size / 2) {
        x = q[0] + (p[0] - q[0]) * alpha;
        y = q[1] + (p[1] - q[1]) * alpha;
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
    const p = view.cur.get(view.perturbed);
    if (p) {
      g.strokeStyle = '#ff4d4d';
      g.lineWidth = 2;
      g.beginPath();
      g.arc((p[0] - x0) * scale, c.height - (p[1] - y0) * scale, 10, 0, Math.PI * 2);
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
