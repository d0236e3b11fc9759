// The one element builder the page uses: h('div', {class: 'x', onclick: f}, child, 'text').
// Attributes are set with setAttribute and children appended as nodes or text,
// so nothing passed in is ever parsed as HTML.

export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'class') node.className = v;
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children) node.append(c);
  return node;
}

/**
 * Sets `node`'s text, only when it differs: writing the same words again
 * would still replace the text node and make the page lay the line out anew.
 */
export function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}
