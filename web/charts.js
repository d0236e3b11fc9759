// Bar charts drawn as SVG by the page: no library, a few hundred bytes of
// markup per chart. Each chart is an image with a spoken summary
// (`role="img"`, `aria-label`) and a table-like title per bar; each bar
// carries its value in `data-value`, so tests compare them with the API.

const NS = 'http://www.w3.org/2000/svg';

function el(tag, attrs = {}, text) {
  const n = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, String(v));
  if (text !== undefined) n.textContent = text;
  return n;
}

/**
 * The width a chart is drawn at, in the page's pixels: the screen's, up to
 * 640, so that on a phone the SVG is not scaled down and its 13 px labels
 * stay 13 px.
 */
function chartWidth() {
  const screen = typeof window === 'object' ? window.innerWidth - 40 : 640;
  return Math.round(Math.min(640, Math.max(300, screen)));
}

/**
 * A bar chart: `bars` is `[{label, value, part?}]` (`part`, if given, is the
 * share of `value` drawn brighter, e.g. wins among games played); `format`
 * writes a value. Labels are thinned out to fit; every bar keeps its title.
 */
export function barChart({ label, bars, format = String, partLabel = null }) {
  const W = chartWidth(), H = 220, left = 44, bottom = 36, top = 12;
  const max = Math.max(1, ...bars.map((b) => b.value));
  const svg = el('svg', { viewBox: `0 0 ${W} ${H}`, class: 'chart', role: 'img', 'aria-label': label, preserveAspectRatio: 'xMidYMid meet' });
  svg.append(el('title', {}, label));
  const plotW = W - left - 8, plotH = H - top - bottom;
  // Three grid lines with their values.
  for (const f of max >= 2 ? [0, 0.5, 1] : [0, 1]) {
    const y = top + plotH * (1 - f);
    svg.append(el('line', { x1: left, x2: W - 8, y1: y, y2: y, class: 'grid' }));
    svg.append(el('text', { x: left - 6, y: y + 4, 'text-anchor': 'end', class: 'axis' }, format(Math.round(max * f))));
  }
  const n = Math.max(1, bars.length);
  const step = plotW / n, bw = Math.min(48, Math.max(2, step * 0.7));
  // As many labels as fit, one in 48 px at least.
  const every = Math.ceil(n / Math.max(1, Math.floor(plotW / 48)));
  bars.forEach((b, i) => {
    const x = left + i * step + (step - bw) / 2;
    const hgt = (b.value / max) * plotH;
    const g = el('g', { class: 'bar', 'data-value': b.value, 'data-label': b.label });
    g.append(el('title', {}, `${b.label}: ${format(b.value)}${b.part != null && partLabel ? `, ${partLabel(b.part)}` : ''}`));
    g.append(el('rect', { x, y: top + plotH - hgt, width: bw, height: Math.max(0, hgt), class: 'bar-all' }));
    if (b.part != null) {
      const ph = (b.part / max) * plotH;
      g.append(el('rect', { x, y: top + plotH - ph, width: bw, height: Math.max(0, ph), class: 'bar-part', 'data-part': b.part }));
    }
    svg.append(g);
    if (i % every === 0) svg.append(el('text', { x: x + bw / 2, y: H - bottom + 16, 'text-anchor': 'middle', class: 'axis' }, b.label));
  });
  svg.append(el('line', { x1: left, x2: W - 8, y1: top + plotH, y2: top + plotH, class: 'base' }));
  return svg;
}

/**
 * Shares with their 95% intervals as horizontal bars: `rows` is
 * `[{label, rate, low, high}]`, rates as fractions.
 */
export function intervalChart({ label, rows, format }) {
  const W = chartWidth(), rowH = 26, left = 150, top = 8;
  const H = top * 2 + rows.length * rowH + 16;
  const svg = el('svg', { viewBox: `0 0 ${W} ${H}`, class: 'chart intervals', role: 'img', 'aria-label': label });
  svg.append(el('title', {}, label));
  const plotW = W - left - 70;
  for (const f of [0, 0.5, 1]) {
    const x = left + plotW * f;
    svg.append(el('line', { x1: x, x2: x, y1: top, y2: H - 16, class: 'grid' }));
    svg.append(el('text', { x, y: H - 2, 'text-anchor': 'middle', class: 'axis' }, format(f)));
  }
  rows.forEach((r, i) => {
    const y = top + i * rowH;
    const g = el('g', { class: `bar ${r.kind || ''}`, 'data-value': r.rate, 'data-label': r.label });
    g.append(el('title', {}, `${r.label}: ${format(r.rate)} (${format(r.low)}–${format(r.high)})`));
    g.append(el('text', { x: left - 8, y: y + 17, 'text-anchor': 'end', class: 'axis' }, r.label));
    g.append(el('rect', { x: left, y: y + 5, width: Math.max(0, plotW * r.rate), height: rowH - 10, class: 'bar-all' }));
    g.append(el('line', { x1: left + plotW * r.low, x2: left + plotW * r.high, y1: y + rowH / 2, y2: y + rowH / 2, class: 'ci' }));
    g.append(el('text', { x: left + plotW + 6, y: y + 17, class: 'axis' }, format(r.rate)));
    svg.append(g);
  });
  return svg;
}
