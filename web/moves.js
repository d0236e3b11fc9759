// Reading the server's `legal` list: which card each move picks up, and where
// it may go. No rule is decided here; the server's list is the only truth.

/** The pile named `name` in `state`, or undefined. */
export function pileOf(state, name) {
  return state.piles.find((p) => p.name === name);
}

/** The kind of pile a name stands for: "t3" → tableau, "f1" → foundation... */
export function kindOfName(state, name) {
  return pileOf(state, name)?.kind;
}

/**
 * Groups the card moves of `state.legal` by the card they pick up.
 * Returns a Map from "pile:index" to the moves in the server's order
 * (foundations first). A step moves the card the server names (the top card,
 * or the base of a run); a draw names its index.
 */
export function movesByCard(state) {
  const map = new Map();
  for (const mv of state.legal) {
    if (mv.kind !== 'step' && mv.kind !== 'draw') continue;
    const pile = pileOf(state, mv.from);
    if (!pile || !pile.cards.length) continue;
    let index = pile.cards.length - 1;
    if (mv.kind === 'draw') index = mv.index;
    else if (mv.card) {
      for (let i = pile.cards.length - 1; i >= 0; i--) {
        if (pile.cards[i].card === mv.card) { index = i; break; }
      }
    }
    const key = `${mv.from}:${index}`;
    if (!map.has(key)) map.set(key, []);
    map.get(key).push(mv);
  }
  return map;
}

/**
 * The piles a move may be dropped on: exactly the server's list, its named
 * destination and the destinations it lists as equivalent (`also`). Returns
 * Map pile name → move text to send.
 */
export function dropTargets(state, moves) {
  const out = new Map();
  for (const mv of moves) {
    if (!out.has(mv.to)) out.set(mv.to, mv.move);
    const source = mv.move.slice(0, mv.move.indexOf('>'));
    for (const other of mv.also || []) {
      if (!out.has(other)) out.set(other, `${source}>${other}`);
    }
  }
  return out;
}

/** The legal move with this text, if any. */
export function findMove(state, text) {
  return state.legal.find((m) => m.move === text);
}
