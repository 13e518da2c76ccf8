import assert from "node:assert/strict";
import { peSubsystem } from "./pe_image.ts";

/** A minimal PE header: MZ, e_lfanew = 0x80, "PE\0\0", the optional header's Subsystem. */
function image(subsystem: number, lfanew = 0x80): Uint8Array {
  const head = new Uint8Array(0x200);
  const view = new DataView(head.buffer);
  head.set([0x4d, 0x5a]);
  view.setUint32(0x3c, lfanew, true);
  view.setUint32(lfanew, 0x00004550, true);
  view.setUint16(lfanew + 24 + 68, subsystem, true);
  return head;
}

Deno.test("peSubsystem reads a console (3) or GUI (2) image's subsystem", () => {
  assert.equal(peSubsystem(image(3)), 3);
  assert.equal(peSubsystem(image(2, 0xf0)), 2);
});

Deno.test("peSubsystem answers null for what is not a PE image", () => {
  assert.equal(peSubsystem(new Uint8Array(10)), null);
  assert.equal(peSubsystem(new TextEncoder().encode("#!/bin/sh\necho not an exe\n".padEnd(0x200))), null);
  const broken = image(3);
  broken[0x80] = 0;
  assert.equal(peSubsystem(broken), null);
  assert.equal(peSubsystem(image(3).subarray(0, 0xc0)), null, "a header past the bytes read");
});
