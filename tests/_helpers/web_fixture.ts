/**
 * The browser tests' fixture web site, served on loopback by the test itself. The
 * page records what it sees into `window.__journal` (read independently over CDP);
 * the server records form submissions and serves one download.
 *
 * @module
 */

/** The page: a form, dialogs, a file input, a download link, hover, scroll and drag targets. */
export const FIXTURE_PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>Browser fixture</title>
<style>
  body { font: 14px sans-serif; margin: 10px; }
  #hoverbox { width: 160px; height: 30px; background: #ddd; }
  #hoverbox:hover { background: #f88; }
  #scroller { width: 200px; height: 80px; overflow: auto; border: 1px solid #999; }
  #tall { height: 800px; }
  #drag { position: absolute; left: 20px; top: 470px; width: 60px; height: 40px; background: #8cf; }
  #drop { position: absolute; left: 300px; top: 450px; width: 140px; height: 80px; border: 2px dashed #555; }
  #h5 { position: absolute; left: 120px; top: 470px; width: 60px; height: 40px; background: #fc8; }
</style>
<script>
  window.__journal = [];
  function log(kind, data) {
    window.__journal.push(Object.assign({ kind }, data || {}));
    document.getElementById('last').textContent = kind;
  }
</script></head>
<body>
<h1>Fixture</h1>
<form id="f" action="/submit" method="post">
  <label>Name <input id="name" name="name"></label>
  <label>Comment <textarea id="comment" name="comment"></textarea></label>
  <button id="send" type="submit">Send</button>
</form>
<label><input type="checkbox" id="agree" onchange="log('agree', { checked: this.checked })"> Agree</label>
<button id="alert" onclick="alert('Hello from the page'); log('alert_closed')">Alert</button>
<button id="confirm" onclick="log('confirm', { result: confirm('Sure?') })">Confirm</button>
<label>Upload <input type="file" id="file" onchange="log('file', { files: [...this.files].map((f) => ({ name: f.name, size: f.size })) })"></label>
<a id="dl" href="/download/report.bin">Download report</a>
<div id="hoverbox" onmouseenter="log('hover')">Hover me</div>
<div id="scroller" aria-label="Scroller" tabindex="0" onscroll="log('scroll', { top: this.scrollTop })"><div id="tall">tall</div></div>
<div id="drag" role="button" aria-label="Drag me">drag</div>
<div id="h5" draggable="true" aria-label="HTML5 drag" ondragstart="event.dataTransfer.setData('text/plain', 'h5')">h5</div>
<div id="drop" role="region" aria-label="Drop zone" ondragover="event.preventDefault()"
  ondrop="event.preventDefault(); log('h5drop', { data: event.dataTransfer.getData('text/plain') })">drop here</div>
<p id="last">ready</p>
<script>
  const drag = document.getElementById('drag');
  let start = null;
  drag.addEventListener('mousedown', (e) => { start = { x: e.clientX, y: e.clientY }; });
  document.addEventListener('mousemove', (e) => {
    if (!start) return;
    drag.style.left = (20 + e.clientX - start.x) + 'px';
    drag.style.top = (470 + e.clientY - start.y) + 'px';
  });
  document.addEventListener('mouseup', (e) => {
    if (!start) return;
    start = null;
    const r = document.getElementById('drop').getBoundingClientRect();
    const inside = e.clientX >= r.left && e.clientX <= r.right && e.clientY >= r.top && e.clientY <= r.bottom;
    log('dragged', { x: e.clientX, y: e.clientY, inside });
  });
</script>
</body></html>`;

/** A running fixture site. */
export interface WebFixture extends AsyncDisposable {
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  /** Bodies of POST /submit, parsed. */
  submissions: Record<string, string>[];
  /** The bytes /download/report.bin serves. */
  download: Uint8Array<ArrayBuffer>;
  close(): Promise<void>;
}

/** Serves the fixture on an ephemeral loopback port. */
export function startWebFixture(): WebFixture {
  const submissions: Record<string, string>[] = [];
  const download = crypto.getRandomValues(new Uint8Array(48 * 1024));
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (request) => {
    const url = new URL(request.url);
    const html = (body: string) =>
      new Response(body, { headers: { "content-type": "text/html; charset=utf-8" } });
    if (url.pathname === "/") return html(FIXTURE_PAGE);
    if (url.pathname === "/submit" && request.method === "POST") {
      submissions.push(Object.fromEntries(new URLSearchParams(await request.text())));
      return html("<!doctype html><title>Thanks</title><h1>Thanks</h1><p id=done>received</p>");
    }
    if (url.pathname === "/download/report.bin") {
      return new Response(download.slice(), {
        headers: {
          "content-type": "application/octet-stream",
          "content-disposition": 'attachment; filename="report.bin"',
        },
      });
    }
    if (url.pathname === "/other") return html("<!doctype html><title>Other</title><p>other page</p>");
    await request.body?.cancel();
    return new Response("not found", { status: 404 });
  });
  const close = () => server.shutdown();
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    submissions,
    download,
    close,
    [Symbol.asyncDispose]: close,
  };
}
