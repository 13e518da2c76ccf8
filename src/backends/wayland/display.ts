/**
 * The back end's one connection to the compositor, opened on first use and opened again after
 * the compositor went away (a call then fails with `display_unavailable` and the next one
 * connects), and the outputs it announces (position, mode) for capture and pointer extents.
 *
 * @module
 */
import type { Rect } from "../../ports/geometry.ts";
import { WireConnection } from "./wire/connection.ts";

/** One wl_output. */
export interface Output {
  id: number;
  name: string;
  /** Layout position and current mode size (pixels; scale 1 assumed for layout = pixels). */
  bounds: Rect;
  scale: number;
}

const ZERO: Rect = { x: 0, y: 0, width: 0, height: 0 };

/** What is kept per connection. */
export interface Connected {
  wire: WireConnection;
  outputs: Output[];
  seat: number;
  /** The seat's current capabilities (wl_seat capability bits), kept by its events. */
  seatState: { capabilities: number };
}

/** The compositor connection and its outputs. */
export class WaylandDisplay {
  #current: Promise<Connected> | null = null;
  #generation = 0;

  constructor(readonly socket: string) {}

  /** Increases every time a new connection is opened: state tied to the old one is stale. */
  get generation(): number {
    return this.#generation;
  }

  /**
   * The live connection, its outputs and a bound wl_seat.
   *
   * @throws {DriverError} `display_unavailable` when the compositor does not accept.
   */
  async connected(): Promise<Connected> {
    if (this.#current) {
      const current = await this.#current.catch(() => null);
      if (current?.wire.alive) return current;
      current?.wire.close();
      this.#current = null;
    }
    this.#current = this.#open();
    this.#current.catch(() => this.#current = null);
    return await this.#current;
  }

  async #open(): Promise<Connected> {
    const wire = await WireConnection.open(this.socket);
    try {
      this.#generation++;
      const outputs = wire.globals.filter((g) => g.iface === "wl_output").map((global) => {
        const output: Output = { id: wire.bindGlobal(global, 4), name: "", bounds: ZERO, scale: 1 };
        let position = { x: 0, y: 0 };
        wire.listen(output.id, (event) => {
          if (event.name === "geometry") {
            position = { x: event.args[0] as number, y: event.args[1] as number };
          }
          // mode flags: 1 = current
          if (event.name === "mode" && ((event.args[0] as number) & 1)) {
            output.bounds = { ...position, width: event.args[1] as number, height: event.args[2] as number };
          }
          if (event.name === "done") output.bounds = { ...output.bounds, ...position };
          if (event.name === "scale") output.scale = event.args[0] as number;
          if (event.name === "name") output.name = event.args[0] as string;
        });
        return output;
      });
      const seat = wire.bind("wl_seat", 1) ?? 0;
      const seatState = { capabilities: 0 };
      if (seat) {
        wire.listen(seat, (event) => {
          if (event.name === "capabilities") seatState.capabilities = event.args[0] as number;
        });
      }
      await wire.roundtrip();
      return { wire, outputs, seat, seatState };
    } catch (error) {
      wire.close();
      throw error;
    }
  }

  /** The layout's bounding box (every output), the extent absolute pointer motion is relative to. */
  static layout(outputs: readonly Output[]): Rect {
    if (outputs.length === 0) return ZERO;
    const left = Math.min(...outputs.map((o) => o.bounds.x));
    const top = Math.min(...outputs.map((o) => o.bounds.y));
    const right = Math.max(...outputs.map((o) => o.bounds.x + o.bounds.width));
    const bottom = Math.max(...outputs.map((o) => o.bounds.y + o.bounds.height));
    return { x: left, y: top, width: right - left, height: bottom - top };
  }

  /** Closes the connection. */
  async close(): Promise<void> {
    const current = await this.#current?.catch(() => null);
    current?.wire.close();
    this.#current = null;
  }
}
