/**
 * The browser benchmark's page: 509 elements worth a ref, 480 of them interactive
 * (links, text fields, check boxes, radios, selects, buttons, text areas, ARIA buttons),
 * each with a unique id `i<n>` so that a snapshot can be checked to keep every one.
 *
 * @module
 */

/** How many interactive elements the page has (ids i0 … i479). */
export const INTERACTIVE = 480;
/** How many elements worth a ref it has in all (the interactive ones, 9 headings, 20 images). */
export const ELEMENTS = 509;

/** The page's HTML. */
export function benchPage(): string {
  let n = 0;
  const id = () => `i${n++}`;
  const parts: string[] = ["<h1>Benchmark page</h1>"];
  const section = (title: string, body: string[]) =>
    parts.push(`<h2>${title}</h2><div>${body.join("\n")}</div>`);
  section(
    "Navigation",
    Array.from({ length: 40 }, (_, i) => `<a id="${id()}" href="#nav${i}">Section ${i}</a>`),
  );
  section(
    "Text fields",
    Array.from(
      { length: 100 },
      (_, i) => `<p><label>Field ${i} <input id="${id()}" name="f${i}"></label></p>`,
    ),
  );
  section("Options", [
    ...Array.from({ length: 60 }, (_, i) => `<span><input type="checkbox" id="${id()}"> Option ${i}</span>`),
    ...Array.from(
      { length: 40 },
      (_, i) => `<span><input type="radio" name="r${i % 8}" id="${id()}"> Radio ${i}</span>`,
    ),
  ]);
  section(
    "Choices",
    Array.from(
      { length: 40 },
      (_, i) =>
        `<label>Choice ${i} <select id="${id()}"><option>alpha</option><option>beta</option>` +
        `<option>gamma</option></select></label>`,
    ),
  );
  section("Actions", [
    ...Array.from({ length: 80 }, (_, i) => `<button id="${id()}">Action ${i}</button>`),
    ...Array.from({ length: 20 }, (_, i) => `<div role="button" tabindex="0" id="${id()}">Widget ${i}</div>`),
  ]);
  section("Notes", Array.from({ length: 20 }, (_, i) => `<textarea id="${id()}">note ${i}</textarea>`));
  section(
    "Table",
    Array.from(
      { length: 20 },
      (_, r) =>
        `<table><tr>${
          Array.from(
            { length: 4 },
            (_, c) => `<td><a id="${id()}" href="#row${r}c${c}">Row ${r} cell ${c}</a></td>`,
          )
            .join("")
        }</tr></table>`,
    ),
  );
  section(
    "Images",
    Array.from(
      { length: 20 },
      (_, i) =>
        `<img alt="Picture ${i}" width="24" height="24" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">`,
    ),
  );
  if (n !== INTERACTIVE) throw new Error(`bench page has ${n} interactive elements, not ${INTERACTIVE}`);
  return `<!doctype html><html><head><meta charset="utf-8"><title>Bench page</title>
<style>body { font: 12px sans-serif; } p { margin: 2px; } h2 { margin: 4px 0; }</style></head>
<body>${parts.join("\n")}</body></html>`;
}
