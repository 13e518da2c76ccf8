/**
 * Functions that run inside the page (as `Runtime.callFunctionOn` / `evaluate`
 * sources). They read; the only thing they add to a page is the short-lived
 * effect probe, removed when it is read back.
 *
 * @module
 */

/**
 * Collects elements worth a ref under `this` (or the document), in document order:
 * returns the element array. `content` adds text blocks (semantic_v2).
 */
export const COLLECT_ELEMENTS = `function (content, limit) {
  const root = this && this.nodeType === 1 ? this : document.documentElement;
  const CONTROL = 'a[href],button,input,select,textarea,summary,[contenteditable=""],[contenteditable="true"],' +
    '[role],[tabindex],[draggable="true"],[onclick],[onmousedown],[onmouseenter],[onmouseover],[onpointerdown],' +
    '[ondrop],[aria-label],h1,h2,h3,h4,h5,h6,img[alt],iframe,video,audio,dialog,form';
  const CONTENT = 'p,li,td,th,pre,blockquote,dd,dt,figcaption,caption,legend,label';
  const out = [];
  const visible = (el) => {
    if (el.matches('input[type=file]')) return true;
    if (!el.getClientRects().length) return false;
    const style = getComputedStyle(el);
    return style.visibility !== 'hidden' && style.display !== 'none';
  };
  const all = [root, ...root.querySelectorAll('*')];
  for (const el of all) {
    if (out.length >= limit) break;
    const control = el.matches(CONTROL) && el !== document.documentElement && el !== document.body;
    const text = !control && content && el.matches(CONTENT) && (el.innerText || '').trim() !== '';
    if ((control || text) && visible(el)) out.push(el);
  }
  return out;
}`;

/** Describes each element of the array `this` (JSON-serialisable, by value). */
export const DESCRIBE_ELEMENTS = `function (content) {
  const ROLES = { A: 'link', BUTTON: 'button', SELECT: 'combobox', TEXTAREA: 'textbox', SUMMARY: 'button',
    IMG: 'img', H1: 'heading', H2: 'heading', H3: 'heading', H4: 'heading', H5: 'heading', H6: 'heading',
    FORM: 'form', DIALOG: 'dialog', IFRAME: 'iframe', VIDEO: 'video', AUDIO: 'audio', LABEL: 'label',
    LI: 'listitem', TD: 'cell', TH: 'columnheader', P: 'paragraph' };
  const INPUT_ROLES = { checkbox: 'checkbox', radio: 'radio', range: 'slider', number: 'spinbutton',
    search: 'searchbox', button: 'button', submit: 'button', reset: 'button', image: 'button', file: 'file' };
  const LANDMARK = 'form,nav,main,header,footer,aside,dialog,[role=dialog],fieldset,section[aria-label]';
  const squash = (s) => (s || '').replace(/\\s+/g, ' ').trim().slice(0, 120);
  return this.map((el) => {
    const tag = el.tagName;
    const type = tag === 'INPUT' ? (el.getAttribute('type') || 'text').toLowerCase() : null;
    const role = el.getAttribute('role') || (type ? INPUT_ROLES[type] || 'textbox' : ROLES[tag]) ||
      (el.isContentEditable ? 'textbox' : 'generic');
    const labelled = el.getAttribute('aria-labelledby');
    const byId = labelled ? labelled.split(/\\s+/).map((id) => document.getElementById(id)?.innerText || '').join(' ') : '';
    const labels = el.labels ? [...el.labels].map((l) => l.innerText).join(' ') : '';
    const name = squash(el.getAttribute('aria-label') || byId || labels || el.getAttribute('alt') ||
      (type === 'submit' || type === 'button' ? el.value : '') || el.getAttribute('placeholder') ||
      el.getAttribute('title') || (type ? el.getAttribute('name') : '') || el.innerText || el.textContent);
    const r = el.getBoundingClientRect();
    const editable = el.isContentEditable || tag === 'TEXTAREA' ||
      (tag === 'INPUT' && !['checkbox', 'radio', 'button', 'submit', 'reset', 'file', 'image', 'range', 'color'].includes(type));
    let value = null;
    if ('value' in el && tag !== 'BUTTON' && tag !== 'LI') value = type === 'password' ? '•'.repeat(el.value.length) : String(el.value);
    else if (el.isContentEditable) value = squash(el.innerText);
    let depth = 0;
    for (let p = el.parentElement?.closest(LANDMARK); p; p = p.parentElement?.closest(LANDMARK)) depth++;
    const kind = content && !el.matches('a[href],button,input,select,textarea,summary,[role],[tabindex],[draggable="true"],' +
      '[onclick],[onmousedown],[onmouseenter],[onmouseover],[onpointerdown],[ondrop],[aria-label],[contenteditable],' +
      'h1,h2,h3,h4,h5,h6,img,iframe,video,audio,dialog,form')
      ? 'content' : 'control';
    const scrollable = el.scrollHeight > el.clientHeight + 1 && /auto|scroll/.test(getComputedStyle(el).overflowY);
    return {
      kind, tag: tag.toLowerCase(), role, name, type, value, depth,
      level: /^H[1-6]$/.test(tag) ? Number(tag[1]) : null,
      checked: type === 'checkbox' || type === 'radio' ? el.checked : null,
      disabled: Boolean(el.disabled), editable, focused: document.activeElement === el,
      href: tag === 'A' ? el.href : null, id: el.id || null,
      multiple: type === 'file' ? el.multiple : null, draggable: el.draggable === true, scrollable,
      bounds: { x: Math.round(r.x), y: Math.round(r.y), width: Math.round(r.width), height: Math.round(r.height) },
    };
  });
}`;

/** Whether `this` is still in its document. */
export const IS_CONNECTED = `function () { return this.isConnected; }`;

/** Probe installed before an action: events reaching `this` (or anywhere) and DOM mutations. */
export const INSTALL_PROBE = `function (key, types) {
  const target = this && this.nodeType === 1 ? this : null;
  const state = { events: [], mutations: 0 };
  const observer = new MutationObserver((list) => { state.mutations += list.length; });
  observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  const handler = (e) => state.events.push({ type: e.type, trusted: e.isTrusted,
    inside: !target || e.target === target || (e.target instanceof Node && target.contains(e.target)) });
  for (const type of types) window.addEventListener(type, handler, true);
  window[key] = { state, stop() {
    state.mutations += observer.takeRecords().length;
    observer.disconnect();
    for (const type of types) window.removeEventListener(type, handler, true);
  } };
  return true;
}`;

/** Reads the probe back and removes it. */
export const READ_PROBE = `function (key) {
  const probe = window[key];
  if (!probe) return null;
  probe.stop();
  delete window[key];
  return probe.state;
}`;

/** State of `this` an action may change: value, checked, hover, focus, scroll offsets. */
export const ELEMENT_STATE = `function () {
  const el = this && this.nodeType === 1 ? this : null;
  const scroller = document.scrollingElement;
  return {
    value: el && 'value' in el ? String(el.value) : el && el.isContentEditable ? el.innerText : null,
    checked: el && 'checked' in el ? el.checked : null,
    hover: el ? el.matches(':hover') : null,
    focused: el ? document.activeElement === el : null,
    scroll: [scrollX, scrollY, el ? el.scrollLeft : 0, el ? el.scrollTop : 0],
    files: el && el.files ? [...el.files].map((f) => ({ name: f.name, size: f.size })) : null,
    pageScroll: scroller ? [scroller.scrollLeft, scroller.scrollTop] : null,
  };
}`;
