// anchors.mjs - the markdown helpers of the docs checks: a page's prose
// (fenced code blanked) and the #anchors its headings and <a id> tags give,
// by GitHub's rules.
import { readFileSync } from 'node:fs';

/** The page's lines, blank inside fenced code blocks; inline code blanked too unless keepInline. */
export function prose(text, keepInline = false) {
  const lines = text.split('\n');
  let fence = null;
  return lines.map((line) => {
    const f = /^\s*(```+|~~~+)/.exec(line);
    if (fence) { if (f && line.trim().startsWith(fence)) fence = null; return ''; }
    if (f) { fence = f[1]; return ''; }
    return keepInline ? line : line.replace(/(`+)[^`]*?\1/g, (m) => ' '.repeat(m.length));
  });
}

/** GitHub's heading anchor: lowercase, drop punctuation but '-' and '_', spaces to '-'. */
export function slug(heading) {
  return heading
    .replace(/<[^>]+>/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

const anchorCache = new Map();
export function anchorsOf(file) {
  if (anchorCache.has(file)) return anchorCache.get(file);
  const anchors = new Set();
  const seen = new Map();
  for (const line of prose(readFileSync(file, 'utf8'), true)) {
    const h = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (h) {
      const base = slug(h[1]);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      anchors.add(n === 0 ? base : `${base}-${n}`);
    }
    for (const a of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(a[1]);
  }
  anchorCache.set(file, anchors);
  return anchors;
}
