import assert from "node:assert/strict";
import {
  applicationDirs,
  execArgv,
  listDesktopEntries,
  parseDesktopEntry,
  stripFieldCodes,
  unescapeValue,
} from "./desktop_entries.ts";

const GEDIT = `# comment
[Desktop Entry]
Name=Text Editor
Name[de]=Texteditor
Exec=gedit %U
Type=Application

[Desktop Action new-window]
Name=New Window
Exec=gedit --new-window
`;

Deno.test("parseDesktopEntry reads the main group only", () => {
  assert.deepEqual(parseDesktopEntry(GEDIT), {
    type: "Application",
    name: "Text Editor",
    exec: "gedit %U",
    noDisplay: false,
    hidden: false,
  });
  const hidden = parseDesktopEntry(
    "[Desktop Entry]\nType=Application\nName=X\nNoDisplay=true\nHidden=true\n",
  );
  assert.equal(hidden.noDisplay, true);
  assert.equal(hidden.hidden, true);
  assert.equal(parseDesktopEntry("Name=Orphan\n").name, null);
});

Deno.test("unescapeValue undoes the string escapes", () => {
  assert.equal(unescapeValue(String.raw`a\sb\tc\\d\x`), "a b\tc\\d\\x");
});

Deno.test("stripFieldCodes drops codes and keeps literal percent signs", () => {
  assert.deepEqual(stripFieldCodes(["firefox", "%u", "%U", "--icon=%i", "100%%", "%c", "%k", "%F", "a%fb"]), [
    "firefox",
    "--icon=",
    "100%",
    "ab",
  ]);
  assert.deepEqual(stripFieldCodes(["x", ""]), ["x", ""]);
});

Deno.test("execArgv honours Exec quoting and strips field codes", () => {
  assert.deepEqual(execArgv(`"/opt/My App/run" --flag %F`), ["/opt/My App/run", "--flag"]);
  // The file holds \\\\ inside quotes: the string unescape gives \\, the Exec rules give \.
  const fields = parseDesktopEntry(
    String.raw`[Desktop Entry]` + "\n" + String.raw`Exec=sh -c "echo \\\\ \\$x" %u`,
  );
  assert.deepEqual(execArgv(fields.exec ?? ""), ["sh", "-c", "echo \\ $x"]);
  assert.deepEqual(execArgv(`env GDK_BACKEND=x11 'my app' %f`), ["env", "GDK_BACKEND=x11", "my app"]);
  assert.deepEqual(execArgv(`broken "quote %f`), ["broken", '"quote']);
});

Deno.test("applicationDirs puts the user directory first and applies defaults", () => {
  assert.deepEqual(applicationDirs({ HOME: "/home/u" }), [
    "/home/u/.local/share/applications",
    "/usr/local/share/applications",
    "/usr/share/applications",
  ]);
  assert.deepEqual(
    applicationDirs({ HOME: "/home/u", XDG_DATA_HOME: "/d/", XDG_DATA_DIRS: "/a:rel:/b:/a" }),
    [
      "/d/applications",
      "/a/applications",
      "/b/applications",
    ],
  );
});

async function writeEntry(path: string, fields: string): Promise<void> {
  await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  await Deno.writeTextFile(path, `[Desktop Entry]\nType=Application\n${fields}\n`);
}

Deno.test("listDesktopEntries lets the user scope win and filters hidden entries", async () => {
  const root = await Deno.makeTempDir();
  try {
    const user = `${root}/user/applications`;
    const system = `${root}/system/applications`;
    await writeEntry(`${system}/editor.desktop`, "Name=System Editor\nExec=/usr/bin/editor %F");
    await writeEntry(`${user}/editor.desktop`, "Name=User Editor\nExec=editor --user %F");
    await writeEntry(`${system}/hidden-by-user.desktop`, "Name=Shown\nExec=shown");
    await writeEntry(`${user}/hidden-by-user.desktop`, "Name=Shown\nExec=shown\nHidden=true");
    await writeEntry(`${system}/nodisplay.desktop`, "Name=Helper\nExec=helper\nNoDisplay=true");
    await writeEntry(`${system}/vendor/tool.desktop`, "Name=Vendor Tool\nExec=env A=1 /opt/Tool/tool %u");
    await Deno.writeTextFile(
      `${system}/link.desktop`,
      "[Desktop Entry]\nType=Link\nName=Site\nURL=https://x\n",
    );
    await Deno.writeTextFile(`${system}/readme.txt`, "not an entry");
    const entries = await listDesktopEntries([user, system, `${root}/missing/applications`]);
    assert.deepEqual(entries.map((e) => e.id), ["editor", "vendor-tool"]);
    const [editor, tool] = entries;
    assert.equal(editor.name, "User Editor");
    assert.equal(editor.path, `${user}/editor.desktop`);
    assert.equal(editor.launchPath, "editor --user");
    assert.equal(editor.key, "editor");
    assert.ok(editor.mtime instanceof Date);
    assert.deepEqual(tool.argv, ["env", "A=1", "/opt/Tool/tool"]);
    assert.equal(tool.key, "tool");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
