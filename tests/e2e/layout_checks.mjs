// layout_checks.mjs - the e2e checks of the demo's layout at the test's
// 1160x760 viewport: in the netplay view with counters as large as hours of
// netplay make them (?counterBase=N starts the network tick and packet
// counters at N), the side panel and both verdict boxes stay beside the
// canvases, inside the viewport; and the page's scrollbars are drawn for its
// dark theme (color-scheme: dark, scrollbar-color), checked on the computed
// style and on the pixels of the event log's scrollbar in a screenshot.

/** A 10-digit start: more than a day of netplay at 60 network ticks per second. */
const COUNTER_BASE = 4_000_000_000;

/** Where the side panel, its verdict boxes and the canvases are, and whether they fit in the viewport. */
function measure() {
  const vw = window.innerWidth;
  const vh = window.innerHeight;
  const rect = (sel) => {
    const r = document.querySelector(sel).getBoundingClientRect();
    return { sel, left: Math.round(r.left), top: Math.round(r.top), right: Math.round(r.right), bottom: Math.round(r.bottom) };
  };
  const boxes = ['.side', '.side .controls', '#verdict', '#peer-verdict'].map(rect);
  const outside = boxes.filter((b) => b.left < 0 || b.top < 0 || b.right > vw || b.bottom > vh);
  const canvas = rect('#np-canvas-1');
  const side = boxes[0];
  // Through JSON: WebDriver BiDi hands an object referenced twice back only once.
  return JSON.parse(JSON.stringify({
    viewport: `${vw}x${vh}`, outside, side, canvas,
    // Beside the canvases (not wrapped below them), and no horizontal scrolling.
    beside: side.left >= canvas.right && side.top < canvas.bottom,
    scrollWidth: document.documentElement.scrollWidth,
    net: document.getElementById('np-net').textContent,
  }));
}

const where = (m) => m.outside.map((b) => `${b.sel} at (${b.left}, ${b.top})-(${b.right}, ${b.bottom})`).join(', ');

/**
 * Opens the netplay view with the counters started at COUNTER_BASE, runs it
 * with packet loss, and checks the side panel and the verdict boxes stay
 * inside the viewport, beside the canvases; then the same with every cell of
 * the peers' table holding a 13-digit number (the layout must not depend on
 * any counter's width).
 */
export async function layoutHoldsWithLargeCounters(page, expect, url) {
  await page.goto(`${url}?fast=1&view=netplay&counterBase=${COUNTER_BASE}`, { waitUntil: 'load' });
  await page.waitForFunction(() => (window.__demo && window.__demo.netplay.status() !== null) || window.__demoError, { timeout: 60_000, polling: 50 });
  // The view the URL opened (swarm), paused; 600 network ticks with 20% loss.
  const s = await page.evaluate(() => {
    const d = window.__demo;
    d.setPaused(true);
    d.netplay.setNetwork({ latency: 6, jitter: 3, loss: 0.2 });
    return d.netplay.tick(600);
  });
  expect(s.scenario === 'swarm' && s.now >= COUNTER_BASE + 600 && s.net.sent >= COUNTER_BASE + 1200 && s.net.lost > COUNTER_BASE,
    `?counterBase=${COUNTER_BASE} starts the network counters there (network tick ${s.now}, ${s.net.sent} sent, ${s.net.lost} lost)`);
  // The page redraws its panel within 100 ms (requestAnimationFrame).
  await page.waitForFunction((now) => document.getElementById('np-net').textContent.includes(String(now)), { timeout: 10_000, polling: 50 }, s.now)
    .catch(() => {});
  const m = await page.evaluate(measure);
  expect(m.net.includes(String(s.now)), `the netplay status shows the large counters ("${m.net}")`);
  expect(m.outside.length === 0 && m.beside && m.scrollWidth <= 1160,
    `large counters: the side panel and both verdicts stay in the ${m.viewport} viewport, beside the canvases `
    + `(side panel at x ${m.side.left}..${m.side.right}, y ${m.side.top}..${m.side.bottom}; canvases end at x ${m.canvas.right}; page width ${m.scrollWidth})`
    + (m.outside.length ? `; outside: ${where(m)}` : ''));
  // Filled and measured in one task: the page's next panel update rewrites the cells.
  const wide = await page.evaluate(`(() => {
    for (const td of document.querySelectorAll('#np-stats td')) td.textContent = '1234567890123';
    return (${measure})();
  })()`);
  expect(wide.outside.length === 0 && wide.beside && wide.scrollWidth <= 1160,
    `13-digit cells in the peers' table: the side panel and both verdicts stay in the viewport, beside the canvases`
    + (wide.outside.length ? `; outside: ${where(wide)}` : ` (side panel at x ${wide.side.left}..${wide.side.right})`));
}

/**
 * The page's scrollbars follow its dark theme: the computed color-scheme and
 * scrollbar-color of the event log, and its scrollbar's pixels in a
 * screenshot (test-results/events-scrollbar-<browser>.png) are dark, not the
 * light default. Runs in the netplay view the caller left open (paused here),
 * where the page leaves the event log's text alone, so the log can be filled
 * until it scrolls. (Not a view opened here: closing it while its native
 * peer's WebSocket still connects is a page error in firefox.)
 */
export async function darkScrollbars(page, expect, browserName) {
  const style = await page.evaluate(() => {
    const d = window.__demo;
    if (d.netplay.status() === null) throw new Error('darkScrollbars needs the netplay view open');
    d.setPaused(true);
    const ev = document.getElementById('events');
    ev.textContent = Array.from({ length: 40 }, (_, i) => `[${i}] warn scheduler/budget_exceeded system=SwarmMove ms=1.25 budget=1`).join('\n');
    const cs = getComputedStyle(ev);
    return {
      colorScheme: cs.colorScheme, scrollbarColor: cs.scrollbarColor, scrolls: ev.scrollHeight > ev.clientHeight,
      // The width the scrollbar takes (0 where the browser draws none, as headless chromium under puppeteer).
      barWidth: ev.offsetWidth - ev.clientWidth - parseFloat(cs.borderLeftWidth) - parseFloat(cs.borderRightWidth),
    };
  });
  expect(style.scrolls && /\bdark\b/.test(style.colorScheme) && /^rgb/.test(style.scrollbarColor ?? ''),
    `the event log scrolls with color-scheme "${style.colorScheme}", scrollbar-color "${style.scrollbarColor}"`);
  const el = await page.$('#events');
  const box = await el.boundingBox();
  const shot = `test-results/events-scrollbar-${browserName}.png`;
  const png = await page.screenshot({ path: shot, clip: { x: box.x, y: box.y, width: box.width, height: box.height } });
  if (style.barWidth <= 0) {
    // Firefox draws its scrollbar in the box: there the pixels must be checked.
    expect(browserName !== 'firefox', `${shot}: ${browserName} draws no scrollbar beside the event log (the computed style is checked above)`);
    return;
  }
  // The brightest pixel of the scrollbar (the box's rightmost barWidth px), decoded by the page itself.
  const brightest = await page.evaluate(async (b64, bar) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width;
    c.height = img.height;
    const g = c.getContext('2d');
    g.drawImage(img, 0, 0);
    const w = Math.max(1, Math.floor(bar * (img.width / document.getElementById('events').offsetWidth)) - 1);
    const strip = g.getImageData(img.width - w - 1, 0, w, img.height).data;
    let max = 0;
    for (let i = 0; i < strip.length; i += 4) max = Math.max(max, 0.2126 * strip[i] + 0.7152 * strip[i + 1] + 0.0722 * strip[i + 2]);
    return Math.round(max);
  }, Buffer.from(png).toString('base64'), style.barWidth);
  // The theme's lightest scrollbar colour is #3a434e (luminance ~66); a light scrollbar's track is ~240.
  expect(brightest < 128, `the event log's ${style.barWidth} px scrollbar is dark in ${shot} (brightest pixel luminance ${brightest} of 255)`);
}
