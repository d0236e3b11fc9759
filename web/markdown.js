// A tiny, safe markdown-to-DOM renderer for the rules pages: headings,
// paragraphs, bullet and numbered lists, tables, **bold**, *italic* and `code`.
// Every piece of text becomes a text node; nothing is ever parsed as HTML.

function h(tag, parent, text) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

/** Appends `text` with inline `code`, **bold** and *italic* to `parent`. */
export function inline(parent, text) {
  const re = /(`[^`]+`|\*\*[^*]+\*\*|\*[^*\s][^*]*\*)/g;
  let last = 0;
  for (const m of text.matchAll(re)) {
    if (m.index > last) parent.appendChild(document.createTextNode(text.slice(last, m.index)));
    const tok = m[0];
    if (tok.startsWith('`')) h('code', parent, tok.slice(1, -1));
    else if (tok.startsWith('**')) inline(h('strong', parent), tok.slice(2, -2));
    else inline(h('em', parent), tok.slice(1, -1));
    last = m.index + tok.length;
  }
  if (last < text.length) parent.appendChild(document.createTextNode(text.slice(last)));
}

function tableRow(line) {
  return line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((c) => c.trim());
}

/** Renders `md` into a new <div class="markdown">. */
export function renderMarkdown(md) {
  const root = h('div');
  root.className = 'markdown';
  const lines = String(md).replace(/\r\n?/g, '\n').split('\n');
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) { i++; continue; }
    const head = /^(#{1,6})\s+(.*)$/.exec(line);
    if (head) {
      // The page's title is its own h1; a rules page's sections are `##`, so levels keep their number.
      const level = Math.max(2, head[1].length);
      inline(h(`h${level}`, root), head[2].trim());
      i++;
      continue;
    }
    if (/^\s*\|/.test(line)) {
      const table = h('table', root);
      const rows = [];
      while (i < lines.length && /^\s*\|/.test(lines[i])) rows.push(lines[i++]);
      rows.forEach((r, n) => {
        if (n === 1 && /^[\s|:-]+$/.test(r)) return;
        const tr = h('tr', table);
        for (const cell of tableRow(r)) inline(h(n === 0 ? 'th' : 'td', tr), cell);
      });
      continue;
    }
    const bullet = /^(\s*)([-*+]|\d+[.)])\s+(.*)$/;
    if (bullet.test(line)) {
      const ordered = /\d/.test(bullet.exec(line)[2]);
      const list = h(ordered ? 'ol' : 'ul', root);
      let item = null;
      while (i < lines.length && lines[i].trim()) {
        const m = bullet.exec(lines[i]);
        if (m) {
          item = h('li', list);
          inline(item, m[3]);
        } else if (item) {
          // A continuation line of the current item.
          inline(item, ' ' + lines[i].trim());
        }
        i++;
      }
      continue;
    }
    const para = [];
    while (i < lines.length && lines[i].trim() && !/^(#{1,6}\s|\s*\||\s*([-*+]|\d+[.)])\s)/.test(lines[i])) {
      para.push(lines[i++].trim());
    }
    inline(h('p', root), para.join(' '));
  }
  return root;
}
