import assert from "node:assert/strict";
import { chooseCookie, parseXauthority, XauthFamily, xauthorityPath } from "./xauthority.ts";

const text = new TextEncoder();

/** One authority-file entry, as xauth writes it. */
function entry(family: number, address: string, number: string, name: string, data: number[]): Uint8Array {
  const fields = [text.encode(address), text.encode(number), text.encode(name), new Uint8Array(data)];
  const out = new Uint8Array(2 + fields.reduce((sum, f) => sum + 2 + f.length, 0));
  const view = new DataView(out.buffer);
  view.setUint16(0, family);
  let at = 2;
  for (const field of fields) {
    view.setUint16(at, field.length);
    out.set(field, at + 2);
    at += 2 + field.length;
  }
  return out;
}

function file(...entries: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(entries.reduce((sum, e) => sum + e.length, 0));
  let at = 0;
  for (const e of entries) {
    out.set(e, at);
    at += e.length;
  }
  return out;
}

const host = { family: XauthFamily.local, address: text.encode("box"), display: 3 };

Deno.test("parseXauthority reads every entry and drops a truncated last one", () => {
  const bytes = file(
    entry(XauthFamily.local, "box", "3", "MIT-MAGIC-COOKIE-1", [1, 2, 3]),
    entry(XauthFamily.wild, "", "", "MIT-MAGIC-COOKIE-1", [9]),
  );
  const entries = parseXauthority(bytes);
  assert.equal(entries.length, 2);
  assert.deepEqual({ ...entries[0], address: [...entries[0].address], data: [...entries[0].data] }, {
    family: XauthFamily.local,
    address: [...text.encode("box")],
    number: "3",
    name: "MIT-MAGIC-COOKIE-1",
    data: [1, 2, 3],
  });
  assert.equal(parseXauthority(bytes.subarray(0, bytes.length - 1)).length, 1);
  assert.deepEqual(parseXauthority(new Uint8Array(0)), []);
});

Deno.test("chooseCookie takes the first MIT cookie for this host and display, as libXau does", () => {
  const entries = parseXauthority(file(
    entry(XauthFamily.local, "other", "3", "MIT-MAGIC-COOKIE-1", [1]),
    entry(XauthFamily.local, "box", "4", "MIT-MAGIC-COOKIE-1", [2]),
    entry(XauthFamily.local, "box", "3", "MIT-MAGIC-COOKIE-1", [3]),
    entry(XauthFamily.local, "box", "3", "MIT-MAGIC-COOKIE-1", [4]),
  ));
  const chosen = chooseCookie(entries, host);
  assert.ok(typeof chosen === "object");
  assert.deepEqual([...chosen.data], [3]);
});

Deno.test("chooseCookie matches a wildcard address and an entry for every display", () => {
  const wild = chooseCookie(
    parseXauthority(entry(XauthFamily.wild, "", "3", "MIT-MAGIC-COOKIE-1", [5])),
    host,
  );
  assert.ok(typeof wild === "object" && wild.data[0] === 5);
  const any = chooseCookie(
    parseXauthority(entry(XauthFamily.local, "box", "", "MIT-MAGIC-COOKIE-1", [6])),
    host,
  );
  assert.ok(typeof any === "object" && any.data[0] === 6);
});

Deno.test("chooseCookie says none without a match and unsupported when libxcb would send XDM-AUTHORIZATION-1", () => {
  assert.equal(
    chooseCookie(parseXauthority(entry(XauthFamily.local, "other", "3", "MIT-MAGIC-COOKIE-1", [1])), host),
    "none",
  );
  assert.equal(
    chooseCookie(
      parseXauthority(file(
        entry(XauthFamily.local, "box", "3", "MIT-MAGIC-COOKIE-1", [1]),
        entry(XauthFamily.local, "box", "3", "XDM-AUTHORIZATION-1", [2]),
      )),
      host,
    ),
    "unsupported",
  );
  // A kind libxcb does not know is skipped, as it is there.
  assert.equal(
    chooseCookie(parseXauthority(entry(XauthFamily.local, "box", "3", "SUN-DES-1", [1])), host),
    "none",
  );
});

Deno.test("xauthorityPath is XAUTHORITY, else ~/.Xauthority, else none", () => {
  const env = (vars: Record<string, string>) => (name: string) => vars[name];
  assert.equal(xauthorityPath(env({ XAUTHORITY: "/run/x/cookie", HOME: "/home/a" })), "/run/x/cookie");
  assert.equal(xauthorityPath(env({ HOME: "/home/a" })), "/home/a/.Xauthority");
  assert.equal(xauthorityPath(env({})), null);
});
