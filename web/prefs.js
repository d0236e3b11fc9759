// Player preferences kept in this browser (localStorage): the Large switch,
// automatic moves home (on unless switched off), the win celebration, the
// live status line and the speed of a watched solution.

const KEY = 'patience.large';

export function isLarge() {
  try {
    return localStorage.getItem(KEY) === '1';
  } catch {
    return false;
  }
}

export function setLarge(on) {
  try {
    localStorage.setItem(KEY, on ? '1' : '0');
  } catch {
    // Private mode: the switch still works for this page.
  }
  document.documentElement.classList.toggle('large', on);
}

function flag(key, dflt) {
  try {
    const v = localStorage.getItem(key);
    return v === null ? dflt : v === '1';
  } catch {
    return dflt;
  }
}

function setFlag(key, on) {
  try {
    localStorage.setItem(key, on ? '1' : '0');
  } catch {
    // Private mode: the switch still works for this page.
  }
}

/** Automatic moves of safe cards to the foundations: on by default. */
export const autoMove = () => flag('patience.auto', true);
export const setAutoMove = (on) => setFlag('patience.auto', on);

/** The win celebration: on by default, never when the system asks for reduced motion. */
export const celebrate = () => flag('patience.celebrate', true)
  && !window.matchMedia('(prefers-reduced-motion: reduce)').matches;
export const setCelebrate = (on) => setFlag('patience.celebrate', on);

/** The live status line (whether the deal can still be won): on by default. */
export const statusLine = () => flag('patience.status', true);
export const setStatusLine = (on) => setFlag('patience.status', on);

/** The speed of a watched solution, 1 (slow) to 5 (fast). */
export function watchSpeed() {
  try {
    const v = Number(localStorage.getItem('patience.watchSpeed'));
    return v >= 1 && v <= 5 ? v : 3;
  } catch {
    return 3;
  }
}

export function setWatchSpeed(v) {
  try {
    localStorage.setItem('patience.watchSpeed', String(v));
  } catch {
    // Private mode: the speed still holds for this page.
  }
}
