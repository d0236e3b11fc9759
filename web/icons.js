// The toolbar's icons, drawn as SVG by our own code. An icon is decoration:
// the button it sits in carries its name from the message catalogue.

const NS = 'http://www.w3.org/2000/svg';

// 24×24 strokes: a curved arrow back, the same forward, a circle of arrows, three dots.
const PATHS = {
  undo: 'M9 14 4 9l5-5M4 9h10.5a5.5 5.5 0 0 1 0 11H11',
  redo: 'M15 14l5-5-5-5M20 9H9.5a5.5 5.5 0 0 0 0 11H13',
  redeal: 'M20 11a8 8 0 0 0-14.9-4M4 4v4h4M4 13a8 8 0 0 0 14.9 4M20 20v-4h-4',
  more: 'M5 12h.01M12 12h.01M19 12h.01',
};

/** The icon `name` as an inline <svg>, hidden from screen readers. */
export function icon(name) {
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('class', `icon icon-${name}`);
  svg.setAttribute('aria-hidden', 'true');
  const path = document.createElementNS(NS, 'path');
  path.setAttribute('d', PATHS[name]);
  svg.appendChild(path);
  return svg;
}
