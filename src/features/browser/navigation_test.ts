import assert from "node:assert/strict";
import { DriverError } from "../../ports/errors.ts";
import { checkNavigableUrl } from "./navigation.ts";

Deno.test("checkNavigableUrl admits http, https and about only", () => {
  for (const url of ["http://127.0.0.1:8080/a", "https://example.org/", "about:blank"]) {
    assert.equal(checkNavigableUrl(url).href, new URL(url).href);
  }
  for (
    const url of [
      "file:///etc/passwd",
      "javascript:alert(1)",
      "data:text/html,x",
      "chrome://settings",
      "ftp://x/",
    ]
  ) {
    assert.throws(
      () => checkNavigableUrl(url),
      (e: unknown) => e instanceof DriverError && e.code === "browser_origin_outside_scope",
      url,
    );
  }
  assert.throws(
    () => checkNavigableUrl("/relative"),
    (e: unknown) => e instanceof DriverError && e.code === "invalid_arguments",
  );
});
