/**
 * scripts/_ca_env.sh, sourced by the scripts that fetch from a registry: a CA that is only
 * in SSL_CERT_FILE (which neither Node nor Deno reads) reaches npm as NODE_EXTRA_CA_CERTS
 * and Deno as DENO_CERT; what the caller set wins; an unreadable file is not passed on.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

const REPO = fileURLToPath(new URL("..", import.meta.url));

/** NODE_EXTRA_CA_CERTS and DENO_CERT after sourcing the file in `sh` with exactly `env`. */
async function sourced(env: Record<string, string>): Promise<{ node: string; deno: string }> {
  const out = await new Deno.Command("/bin/sh", {
    args: ["-c", '. scripts/_ca_env.sh; printf "%s|%s" "${NODE_EXTRA_CA_CERTS-unset}" "${DENO_CERT-unset}"'],
    cwd: REPO,
    clearEnv: true,
    env: { PATH: "/usr/bin:/bin", ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const [node, deno] = new TextDecoder().decode(out.stdout).split("|");
  return { node, deno };
}

Deno.test("_ca_env.sh hands a CA that is only in SSL_CERT_FILE to Node and Deno", async () => {
  const file = await Deno.makeTempFile({ suffix: ".pem" });
  try {
    assert.deepEqual(await sourced({ SSL_CERT_FILE: file }), { node: file, deno: file });
    assert.deepEqual(
      await sourced({
        SSL_CERT_FILE: file,
        NODE_EXTRA_CA_CERTS: "/own/node.pem",
        DENO_CERT: "/own/deno.pem",
      }),
      { node: "/own/node.pem", deno: "/own/deno.pem" },
      "the caller's own values win",
    );
  } finally {
    await Deno.remove(file);
  }
});

Deno.test("_ca_env.sh passes nothing on without a readable SSL_CERT_FILE", async () => {
  assert.deepEqual(await sourced({}), { node: "unset", deno: "unset" });
  assert.deepEqual(await sourced({ SSL_CERT_FILE: "/nonexistent/ca.pem" }), { node: "unset", deno: "unset" });
});

Deno.test("_ca_env.sh is sourced by every script that fetches from a registry", async () => {
  for (const script of ["scripts/setup.sh", "scripts/wine.sh"]) {
    const text = await Deno.readTextFile(`${REPO}/${script}`);
    assert.match(text, /^\. "?(?:\$REPO\/)?scripts\/_ca_env\.sh"?$/m, script);
  }
});
