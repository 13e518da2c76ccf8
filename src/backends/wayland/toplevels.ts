/**
 * The compositor's toplevel list from `zwlr_foreign_toplevel_manager_v1`: title, app id and
 * state (activated, minimized, ...) of every native window, kept current by its events on the
 * back end's connection, and `activate` to give one the seat's focus. It carries no pid and no
 * geometry: sway's IPC adds those where it exists (`windows.ts`).
 *
 * @module
 */
import type { WaylandDisplay } from "./display.ts";
import { ToplevelState } from "./wire/protocol.ts";

/** One toplevel as the protocol describes it. */
export interface Toplevel {
  /** The handle's object id (stable while the connection lives). */
  handle: number;
  title: string;
  appId: string;
  activated: boolean;
  minimized: boolean;
}

/** The toplevels of one connection. */
export class ToplevelList {
  #generation = -1;
  #manager: number | null = null;
  #toplevels = new Map<number, Toplevel>();
  #pending = new Map<number, Toplevel>();

  constructor(readonly display: WaylandDisplay) {}

  /** True when the compositor offers the protocol. */
  async available(): Promise<boolean> {
    return (await this.display.connected()).wire.version("zwlr_foreign_toplevel_manager_v1") > 0;
  }

  async #ensure(): Promise<number | null> {
    const { wire } = await this.display.connected();
    if (this.#generation === this.display.generation) return this.#manager;
    this.#generation = this.display.generation;
    this.#toplevels = new Map();
    this.#pending = new Map();
    this.#manager = wire.bind("zwlr_foreign_toplevel_manager_v1", 3);
    if (this.#manager === null) return null;
    wire.listen(this.#manager, (event) => {
      if (event.name !== "toplevel") return;
      const handle = event.args[0] as number;
      const toplevel: Toplevel = { handle, title: "", appId: "", activated: false, minimized: false };
      this.#pending.set(handle, toplevel);
      wire.listen(handle, (change) => {
        const target = this.#pending.get(handle) ?? this.#toplevels.get(handle);
        if (!target) return;
        switch (change.name) {
          case "title":
            target.title = (change.args[0] as string | null) ?? "";
            break;
          case "app_id":
            target.appId = (change.args[0] as string | null) ?? "";
            break;
          case "state": {
            const bytes = change.args[0] as Uint8Array;
            const states = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
            target.activated = states.includes(ToplevelState.ACTIVATED);
            target.minimized = states.includes(ToplevelState.MINIMIZED);
            break;
          }
          case "done":
            this.#pending.delete(handle);
            this.#toplevels.set(handle, target);
            break;
          case "closed":
            this.#pending.delete(handle);
            this.#toplevels.delete(handle);
            wire.request(handle, "destroy", []);
            wire.forget(handle);
            break;
        }
      });
    });
    return this.#manager;
  }

  /** The toplevels now (after a roundtrip, so every change sent before the call is in). */
  async list(): Promise<Toplevel[]> {
    if (await this.#ensure() === null) return [];
    const { wire } = await this.display.connected();
    await wire.roundtrip();
    return [...this.#toplevels.values()].map((t) => ({ ...t }));
  }

  /** Asks the compositor to activate (focus, raise) a toplevel for the seat; the caller confirms. */
  async activate(handle: number): Promise<void> {
    const { wire, seat } = await this.display.connected();
    wire.request(handle, "activate", [seat]);
    await wire.roundtrip();
  }
}
