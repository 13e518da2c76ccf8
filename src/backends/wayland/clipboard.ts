/**
 * The clipboard of a wlroots session through `zwlr_data_control_manager_v1`, which lets a
 * client that has no focused surface read and set the seat's selection. Reading asks the
 * selection's owner to write one MIME type into a pipe; writing offers a data source whose
 * `send` requests are answered while it owns the selection (the connection is pumped in the
 * background until another client takes the selection or the back end closes).
 *
 * @module
 */
import { DriverError } from "../../ports/errors.ts";
import type { ClipboardBackend, ClipboardContent } from "../../ports/clipboard.ts";
import type { Connected, WaylandDisplay } from "./display.ts";
import { closeFd, pipe, writeAll } from "./wire/shm.ts";

const TEXT_TYPES = ["text/plain;charset=utf-8", "text/plain", "UTF8_STRING", "STRING", "TEXT"];
const READ_TIMEOUT_MS = 5000;
/** How often the background pump wakes while the driver owns the selection. */
const PUMP_MS = 500;

interface Device {
  generation: number;
  manager: number;
  device: number;
  /** MIME types per offer id, filled by the offers' events. */
  offers: Map<number, string[]>;
  selection: number;
}

/** The clipboard facility. */
export class WaylandClipboard implements ClipboardBackend {
  #device: Device | null = null;
  #source: { id: number; data: Map<string, Uint8Array> } | null = null;
  #pumping: Promise<void> | null = null;
  #closed = false;

  constructor(readonly display: WaylandDisplay) {}

  async #ready(): Promise<Connected & { state: Device }> {
    const connected = await this.display.connected();
    if (this.#device?.generation === this.display.generation) return { ...connected, state: this.#device };
    const { wire, seat } = connected;
    const manager = wire.bind("zwlr_data_control_manager_v1", 2);
    if (manager === null) {
      throw new DriverError(
        "clipboard_unavailable",
        "This compositor offers no zwlr_data_control_manager_v1",
        {
          hint: "the clipboard needs a wlroots compositor (sway, Hyprland, labwc, river)",
        },
      );
    }
    const state: Device = {
      generation: this.display.generation,
      manager,
      device: wire.newId("zwlr_data_control_device_v1"),
      offers: new Map(),
      selection: 0,
    };
    wire.listen(state.device, (event) => {
      if (event.name === "data_offer") {
        const offer = event.args[0] as number;
        state.offers.set(offer, []);
        wire.listen(offer, (e) => state.offers.get(offer)?.push(e.args[0] as string));
      } else if (event.name === "selection") {
        const previous = state.selection;
        state.selection = event.args[0] as number;
        if (previous && previous !== state.selection) {
          wire.request(previous, "destroy", []);
          state.offers.delete(previous);
        }
      }
    });
    wire.request(manager, "get_data_device", [state.device, seat]);
    await wire.roundtrip();
    this.#device = state;
    this.#source = null;
    return { ...connected, state };
  }

  async #receive(connected: Connected, offer: number, type: string): Promise<Uint8Array> {
    const { wire } = connected;
    const ends = pipe();
    let file: Deno.FsFile;
    try {
      wire.request(offer, "receive", [type, { fd: ends.write }]);
      await wire.roundtrip();
    } finally {
      closeFd(ends.write);
    }
    try {
      file = await Deno.open(`/proc/self/fd/${ends.read}`, { read: true });
    } finally {
      closeFd(ends.read);
    }
    // The owner may be this process: its `send` is answered while the read waits.
    let done = false;
    const answering = wire.dispatchUntil(() => done, "the clipboard owner", READ_TIMEOUT_MS).catch(() => {});
    try {
      return new Uint8Array(await new Response(file.readable).arrayBuffer());
    } finally {
      done = true;
      await answering;
    }
  }

  async read(options: { text: boolean; image: boolean }): Promise<ClipboardContent> {
    const connected = await this.#ready();
    const { state } = connected;
    await connected.wire.roundtrip();
    const types = state.selection ? [...(state.offers.get(state.selection) ?? [])] : [];
    let text: string | null = null;
    let imagePng: Uint8Array | null = null;
    if (options.text && state.selection) {
      const type = TEXT_TYPES.find((t) => types.includes(t));
      if (type) text = new TextDecoder().decode(await this.#receive(connected, state.selection, type));
    }
    if (options.image && state.selection && types.includes("image/png")) {
      imagePng = await this.#receive(connected, state.selection, "image/png");
    }
    return { types, text, imagePng };
  }

  async #offer(data: Map<string, Uint8Array>): Promise<string[]> {
    const connected = await this.#ready();
    const { wire, state } = connected;
    if (this.#source) {
      wire.request(this.#source.id, "destroy", []);
      wire.forget(this.#source.id);
    }
    const source = { id: wire.newId("zwlr_data_control_source_v1"), data };
    wire.request(state.manager, "create_data_source", [source.id]);
    wire.listen(source.id, (event) => {
      if (event.name === "send") {
        const [type, fd] = event.args as [string, { fd: number }];
        try {
          writeAll(fd.fd, source.data.get(type) ?? new Uint8Array());
        } catch {
          // The reader went away.
        } finally {
          closeFd(fd.fd);
        }
      } else if (event.name === "cancelled") {
        wire.request(source.id, "destroy", []);
        wire.forget(source.id);
        if (this.#source === source) this.#source = null;
      }
    });
    for (const type of data.keys()) wire.request(source.id, "offer", [type]);
    wire.request(state.device, "set_selection", [source.id]);
    await wire.roundtrip();
    this.#source = source;
    this.#pump(connected);
    return [...data.keys()];
  }

  /** Answers other clients' reads while this driver owns the selection. */
  #pump(connected: Connected): void {
    this.#pumping ??= (async () => {
      while (this.#source && !this.#closed && connected.wire.alive) {
        await connected.wire.dispatchUntil(() => !this.#source || this.#closed, "", PUMP_MS).catch(() => {});
      }
    })().finally(() => this.#pumping = null);
  }

  writeText(text: string): Promise<string[]> {
    const bytes = new TextEncoder().encode(text);
    return this.#offer(new Map(TEXT_TYPES.map((t) => [t, bytes])));
  }

  writeImage(png: Uint8Array): Promise<string[]> {
    return this.#offer(new Map([["image/png", png]]));
  }

  writeFiles(paths: string[]): Promise<string[]> {
    const list = paths.map((p) => `file://${p.split("/").map(encodeURIComponent).join("/")}`).join("\r\n");
    const bytes = new TextEncoder().encode(list + "\r\n");
    return this.#offer(new Map([["text/uri-list", bytes], ["text/plain;charset=utf-8", bytes]]));
  }

  /** Stops answering; the selection goes away with the connection. */
  async dispose(): Promise<void> {
    this.#closed = true;
    await this.#pumping;
  }
}
