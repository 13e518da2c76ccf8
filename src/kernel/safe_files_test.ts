import assert from "node:assert/strict";
import { canonicalPath, checkCallerFile, readCallerFile, writeCallerFile } from "./safe_files.ts";
import { DriverError } from "../ports/errors.ts";

function isCode(code: string) {
  return (error: unknown) => error instanceof DriverError && error.code === code;
}

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "cua-safe-files-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const BYTES = new TextEncoder().encode("new content");

Deno.test("writeCallerFile never writes through a symlink, into a FIFO, a device or /proc", async () => {
  await withDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/victim`, "precious");
    await Deno.symlink(`${dir}/victim`, `${dir}/link.png`);
    await assert.rejects(writeCallerFile(`${dir}/link.png`, BYTES, { field: "f" }), isCode("file_error"));
    assert.equal(await Deno.readTextFile(`${dir}/victim`), "precious");
    assert.equal((await Deno.lstat(`${dir}/link.png`)).isSymlink, true, "the link itself is left alone");

    const fifo = `${dir}/fifo.png`;
    await new Deno.Command("mkfifo", { args: [fifo] }).output();
    await assert.rejects(writeCallerFile(fifo, BYTES, { field: "f" }), isCode("file_error"));
    for (
      const special of ["/dev/null", "/dev/stdout", "/proc/self/fd/1", "/proc/self/environ", "/sys/kernel/x"]
    ) {
      await assert.rejects(writeCallerFile(special, BYTES, { field: "f" }), isCode("file_error"), special);
    }
    await Deno.mkdir(`${dir}/sub`);
    await assert.rejects(writeCallerFile(`${dir}/sub`, BYTES, { field: "f" }), isCode("file_error"));
    await assert.rejects(
      writeCallerFile(`${dir}/missing/x.png`, BYTES, { field: "f" }),
      isCode("file_error"),
    );
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name).sort(), [
      "fifo.png",
      "link.png",
      "sub",
      "victim",
    ]);
  });
});

Deno.test("writeCallerFile replaces a regular file atomically and creates a new one", async () => {
  await withDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/old.png`, "old");
    const inode = (await Deno.stat(`${dir}/old.png`)).ino;
    // A hard link elsewhere keeps the old content: the name was replaced, the file not rewritten.
    await Deno.link(`${dir}/old.png`, `${dir}/hardlink`);
    assert.equal(await writeCallerFile(`${dir}/old.png`, BYTES, { field: "f" }), `${dir}/old.png`);
    assert.equal(await Deno.readTextFile(`${dir}/old.png`), "new content");
    assert.notEqual((await Deno.stat(`${dir}/old.png`)).ino, inode);
    assert.equal(await Deno.readTextFile(`${dir}/hardlink`), "old");
    // Through a directory symlink the parent resolves to the real directory.
    await Deno.mkdir(`${dir}/real`);
    await Deno.symlink(`${dir}/real`, `${dir}/alias`);
    assert.equal(await writeCallerFile(`${dir}/alias/new.png`, BYTES, { field: "f" }), `${dir}/real/new.png`);
    assert.equal(await Deno.readTextFile(`${dir}/real/new.png`), "new content");
    assert.deepEqual(
      [...Deno.readDirSync(`${dir}/real`)].map((e) => e.name),
      ["new.png"],
      "no temporary left",
    );
  });
});

Deno.test("readCallerFile refuses links, FIFOs and oversized files without blocking", async () => {
  await withDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/a.txt`, "hello");
    await Deno.symlink(`${dir}/a.txt`, `${dir}/link.txt`);
    const fifo = `${dir}/fifo`;
    await new Deno.Command("mkfifo", { args: [fifo] }).output();
    assert.equal(
      new TextDecoder().decode((await readCallerFile(`${dir}/a.txt`, { field: "f" })).bytes),
      "hello",
    );
    await assert.rejects(readCallerFile(`${dir}/link.txt`, { field: "f" }), isCode("file_error"));
    // No writer ever opens the FIFO: a blocking open would hang this test.
    await assert.rejects(readCallerFile(fifo, { field: "f" }), isCode("file_error"));
    await assert.rejects(checkCallerFile(fifo, { field: "f" }), isCode("file_error"));
    await assert.rejects(readCallerFile("/dev/zero", { field: "f" }), isCode("file_error"));
    await assert.rejects(
      readCallerFile(`${dir}/a.txt`, { field: "f", maxBytes: 4 }),
      isCode("input_too_large"),
    );
    assert.equal(await checkCallerFile(`${dir}/a.txt`, { field: "f" }), `${dir}/a.txt`);
    const followed = await readCallerFile(`${dir}/link.txt`, { field: "f", followLinks: true });
    assert.equal(new TextDecoder().decode(followed.bytes), "hello");
  });
});

Deno.test("canonicalPath follows every existing link and keeps the missing tail", async () => {
  await withDir(async (dir) => {
    await Deno.mkdir(`${dir}/out`);
    await Deno.symlink(`${dir}/out`, `${dir}/in`);
    await Deno.writeTextFile(`${dir}/out/file`, "");
    await Deno.symlink(`${dir}/out/file`, `${dir}/filelink`);
    assert.equal(canonicalPath(`${dir}/in/new/deeper.png`), `${dir}/out/new/deeper.png`);
    assert.equal(canonicalPath(`${dir}/filelink`), `${dir}/out/file`);
    assert.equal(canonicalPath(`${dir}/in/../x`), `${dir}/x`);
  });
});
