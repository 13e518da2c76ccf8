/**
 * The live view's page: one self-contained HTML document (no external resource, no cookie). It
 * takes the token from its first URL (`/view?token=...`), keeps it in this tab's sessionStorage,
 * takes it out of the address bar at once, and sends it only as an `Authorization` header: on
 * the event stream (read with fetch, since EventSource cannot send headers) and on Stop/Resume.
 *
 * @module
 */

/** The page, with `nonce` allowed to run its one script (the CSP allows nothing else). */
export function viewPage(nonce: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>cua-driver live view</title>
<style>
  :root { color-scheme: dark; font: 14px/1.35 system-ui, sans-serif; }
  body { margin: 0; background: #111; color: #ddd; display: grid; grid-template-rows: auto 1fr; height: 100vh; }
  header { display: flex; gap: 12px; align-items: center; padding: 8px 12px; background: #1c1c1c; border-bottom: 1px solid #333; }
  header h1 { font-size: 15px; margin: 0; font-weight: 600; }
  #state { padding: 2px 10px; border-radius: 10px; background: #1f5f2a; }
  #state.stopped { background: #8a1c1c; }
  #state.offline { background: #555; }
  #note { color: #e9b44c; flex: 1; }
  button { font: inherit; padding: 5px 14px; border-radius: 6px; border: 0; cursor: pointer; }
  #stop { background: #d22; color: #fff; font-weight: 700; }
  #resume { background: #2a7; color: #fff; }
  main { display: grid; grid-template-columns: 1fr 420px; min-height: 0; }
  #screen { position: relative; overflow: hidden; display: flex; align-items: flex-start; justify-content: center; background: #000; }
  #frame { max-width: 100%; max-height: 100%; display: block; }
  #cursor { position: absolute; width: 18px; height: 18px; margin: -9px 0 0 -9px; border: 2px solid #ff3b30;
            border-radius: 50%; box-shadow: 0 0 0 2px #0008; pointer-events: none; display: none; }
  #calls { overflow-y: auto; border-left: 1px solid #333; margin: 0; padding: 0; list-style: none; }
  #calls li { display: grid; grid-template-columns: 64px 1fr; gap: 8px; padding: 8px; border-bottom: 1px solid #2a2a2a; }
  #calls li img, #calls li .nothumb { width: 64px; height: 64px; object-fit: cover; background: #222; border-radius: 4px; }
  #calls li .tool { font-weight: 600; }
  #calls li .meta { color: #999; font-size: 12px; word-break: break-all; }
  #calls li.error, #calls li.refused { background: #3a1515; }
  #calls li.unverifiable, #calls li.suspected_noop, #calls li.partial { background: #3a3212; }
  .effect { padding: 0 6px; border-radius: 6px; background: #333; }
  .effect.confirmed { background: #1f5f2a; }
</style>
</head>
<body>
<header>
  <h1>cua-driver live view</h1>
  <span id="state" class="offline">connecting</span>
  <span id="note"></span>
  <button id="stop" type="button" title="Cancel the running action, release held keys and buttons, refuse all input">Stop input</button>
  <button id="resume" type="button" hidden>Resume input</button>
</header>
<main>
  <div id="screen"><img id="frame" alt="the desktop"><div id="cursor"></div></div>
  <ol id="calls" reversed></ol>
</main>
<script nonce="${nonce}">
"use strict";
const params = new URLSearchParams(location.search);
if (params.has("token")) {
  sessionStorage.setItem("cua-view-token", params.get("token"));
  history.replaceState(null, "", location.pathname);
}
const token = sessionStorage.getItem("cua-view-token") || "";
const auth = { Authorization: "Bearer " + token };
const $ = (id) => document.getElementById(id);
const frame = $("frame"), cursor = $("cursor"), calls = $("calls"), stateEl = $("state"), note = $("note");
let bounds = null, lastPoint = null, frameUrl = null;

function showState(input) {
  stateEl.className = input.stopped ? "stopped" : "";
  stateEl.textContent = input.stopped ? "input stopped by " + input.by : "running";
  $("stop").hidden = input.stopped;
  $("resume").hidden = !input.stopped;
}
function placeCursor() {
  if (!bounds || !lastPoint || !frame.naturalWidth) { cursor.style.display = "none"; return; }
  const sx = frame.clientWidth / bounds.width, sy = frame.clientHeight / bounds.height;
  cursor.style.left = (frame.offsetLeft + (lastPoint.x - bounds.x) * sx) + "px";
  cursor.style.top = (frame.offsetTop + (lastPoint.y - bounds.y) * sy) + "px";
  cursor.style.display = "block";
}
function showFrame(f) {
  const bytes = Uint8Array.from(atob(f.jpeg), (c) => c.charCodeAt(0));
  const url = URL.createObjectURL(new Blob([bytes], { type: "image/jpeg" }));
  frame.onload = () => { if (frameUrl) URL.revokeObjectURL(frameUrl); frameUrl = url; placeCursor(); };
  frame.src = url;
  frame.dataset.seq = String(f.seq);
  bounds = f.bounds;
}
function text(tag, cls, value) {
  const el = document.createElement(tag);
  if (cls) el.className = cls;
  el.textContent = value;
  return el;
}
function showCall(c) {
  let li = document.getElementById("call-" + c.id);
  if (!li) { li = document.createElement("li"); li.id = "call-" + c.id; calls.prepend(li); }
  li.className = c.status + (c.effect ? " " + c.effect : "");
  li.dataset.tool = c.tool;
  li.dataset.status = c.status;
  li.dataset.effect = c.effect || "";
  li.replaceChildren();
  if (c.thumbnail) {
    const img = document.createElement("img");
    img.src = "data:image/jpeg;base64," + c.thumbnail;
    img.alt = "where " + c.tool + " acted";
    li.append(img);
  } else li.append(text("div", "nothumb", ""));
  const body = document.createElement("div");
  const head = text("div", "tool", c.tool + " ");
  if (c.effect) head.append(text("span", "effect " + c.effect, c.effect));
  else if (c.status !== "ok") head.append(text("span", "effect", c.status + (c.code ? ": " + c.code : "")));
  body.append(head);
  const when = new Date(c.started_ms).toLocaleTimeString();
  const took = c.duration_ms === null ? "running" : c.duration_ms + " ms";
  body.append(text("div", "meta", when + " · " + took + " · " + c.target));
  if (c.route) body.append(text("div", "meta", "route " + c.route + (c.evidence.length ? " · evidence " + c.evidence.join(", ") : "")));
  if (c.summary) body.append(text("div", "meta", c.summary));
  li.append(body);
  while (calls.children.length > 200) calls.lastChild.remove();
  if (c.point) { lastPoint = c.point; placeCursor(); }
}
function handle(type, data) {
  if (type === "hello") {
    showState(data.input);
    for (const c of data.calls) showCall(c);
    if (data.frame) showFrame(data.frame);
    note.textContent = "";
  } else if (type === "frame") showFrame(data);
  else if (type === "call") showCall(data);
  else if (type === "input") showState(data);
  else if (type === "problem") note.textContent = data.message;
}
async function listen() {
  for (let wait = 500;; wait = Math.min(wait * 2, 5000)) {
    try {
      const response = await fetch("/view/events", { headers: auth, cache: "no-store" });
      if (response.status === 401) { note.textContent = "wrong or missing token: open the URL cua-driver serve printed"; stateEl.className = "offline"; stateEl.textContent = "not allowed"; return; }
      if (!response.ok) throw new Error("HTTP " + response.status + ": " + (await response.text()));
      wait = 500;
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let end;
        while ((end = buffer.indexOf("\\n\\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let type = "message", data = "";
          for (const line of block.split("\\n")) {
            if (line.startsWith("event: ")) type = line.slice(7);
            else if (line.startsWith("data: ")) data += line.slice(6);
          }
          if (data) handle(type, JSON.parse(data));
        }
      }
    } catch (error) {
      note.textContent = "connection lost (" + error.message + "); retrying";
    }
    stateEl.className = "offline";
    stateEl.textContent = "reconnecting";
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}
async function flip(action) {
  const response = await fetch("/view/" + action, { method: "POST", headers: auth });
  const body = await response.json().catch(() => ({}));
  if (response.ok) showState(body.state);
  else note.textContent = action + " failed: " + (body.error || response.status);
}
$("stop").addEventListener("click", () => flip("stop"));
$("resume").addEventListener("click", () => flip("resume"));
addEventListener("resize", placeCursor);
listen();
</script>
</body>
</html>
`;
}

/** The page a request without the token gets (401): it says how to open the view, and nothing else. */
export function unauthorizedPage(nonce: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>cua-driver live view: token required</title></head>
<body style="font: 15px system-ui, sans-serif; margin: 40px">
<h1>Token required</h1>
<p>Open the live view with the URL <code>cua-driver serve</code> printed on its standard error
(<code>http://127.0.0.1:PORT/view?token=...</code>), or add <code>?token=</code> and the value of
<code>CUA_DRIVER_RS_MCP_HTTP_TOKEN</code> to this address.</p>
<script nonce="${nonce}">
// A reload of the view in a tab that already has the token: open it again with the token (the view
// takes it straight out of the address bar; replace() adds no history entry).
// A token that was just refused is forgotten instead (no loop).
if (new URLSearchParams(location.search).has("token")) {
  sessionStorage.removeItem("cua-view-token");
  history.replaceState(null, "", location.pathname);
} else {
  const token = sessionStorage.getItem("cua-view-token");
  if (token) location.replace("/view?token=" + encodeURIComponent(token));
}
</script>
</body></html>
`;
}
