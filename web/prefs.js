// Player preferences kept in this browser (localStorage): only the Large switch.

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
