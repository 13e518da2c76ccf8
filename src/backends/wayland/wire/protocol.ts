/**
 * The Wayland interfaces the driver speaks, as the wire needs them: per interface, its
 * requests and events in opcode order, each with its argument signature (`i` int, `u` uint,
 * `f` 24.8 fixed, `s` string, `o` object, `n` new id, `a` array, `h` fd). Transcribed from
 * wayland.xml and the wlr-protocols / wayland-protocols XML files (sway 1.7's versions).
 *
 * @module
 */

/** One message: its name and argument signature. */
export type Message = readonly [name: string, signature: string];

/** An interface's messages, index = opcode. */
export interface InterfaceSpec {
  readonly requests: readonly Message[];
  readonly events: readonly Message[];
}

/** The interfaces by name. */
export const PROTOCOL: Readonly<Record<string, InterfaceSpec>> = {
  wl_display: {
    requests: [["sync", "n"], ["get_registry", "n"]],
    events: [["error", "ous"], ["delete_id", "u"]],
  },
  wl_registry: { requests: [["bind", "usun"]], events: [["global", "usu"], ["global_remove", "u"]] },
  wl_callback: { requests: [], events: [["done", "u"]] },
  wl_shm: { requests: [["create_pool", "nhi"]], events: [["format", "u"]] },
  wl_shm_pool: { requests: [["create_buffer", "niiiiu"], ["destroy", ""], ["resize", "i"]], events: [] },
  wl_buffer: { requests: [["destroy", ""]], events: [["release", ""]] },
  wl_output: {
    requests: [["release", ""]],
    events: [
      ["geometry", "iiiiissi"],
      ["mode", "uiii"],
      ["done", ""],
      ["scale", "i"],
      ["name", "s"],
      ["description", "s"],
    ],
  },
  wl_seat: {
    requests: [["get_pointer", "n"], ["get_keyboard", "n"], ["get_touch", "n"], ["release", ""]],
    events: [["capabilities", "u"], ["name", "s"]],
  },
  zwlr_screencopy_manager_v1: {
    requests: [["capture_output", "nio"], ["capture_output_region", "nioiiii"], ["destroy", ""]],
    events: [],
  },
  zwlr_screencopy_frame_v1: {
    requests: [["copy", "o"], ["destroy", ""], ["copy_with_damage", "o"]],
    events: [
      ["buffer", "uuuu"],
      ["flags", "u"],
      ["ready", "uuu"],
      ["failed", ""],
      ["damage", "uuuu"],
      ["linux_dmabuf", "uuu"],
      ["buffer_done", ""],
    ],
  },
  zwlr_virtual_pointer_manager_v1: {
    requests: [["create_virtual_pointer", "on"], ["destroy", ""], [
      "create_virtual_pointer_with_output",
      "oon",
    ]],
    events: [],
  },
  zwlr_virtual_pointer_v1: {
    requests: [
      ["motion", "uff"],
      ["motion_absolute", "uuuuu"],
      ["button", "uuu"],
      ["axis", "uuf"],
      ["frame", ""],
      ["axis_source", "u"],
      ["axis_stop", "uu"],
      ["axis_discrete", "uufi"],
      ["destroy", ""],
    ],
    events: [],
  },
  zwp_virtual_keyboard_manager_v1: { requests: [["create_virtual_keyboard", "on"]], events: [] },
  zwp_virtual_keyboard_v1: {
    requests: [["keymap", "uhu"], ["key", "uuu"], ["modifiers", "uuuu"], ["destroy", ""]],
    events: [],
  },
  zwlr_foreign_toplevel_manager_v1: {
    requests: [["stop", ""]],
    events: [["toplevel", "n"], ["finished", ""]],
  },
  zwlr_foreign_toplevel_handle_v1: {
    requests: [
      ["set_maximized", ""],
      ["unset_maximized", ""],
      ["set_minimized", ""],
      ["unset_minimized", ""],
      ["activate", "o"],
      ["close", ""],
      ["set_rectangle", "oiiii"],
      ["destroy", ""],
      ["set_fullscreen", "o"],
      ["unset_fullscreen", ""],
    ],
    events: [
      ["title", "s"],
      ["app_id", "s"],
      ["output_enter", "o"],
      ["output_leave", "o"],
      ["state", "a"],
      ["done", ""],
      ["closed", ""],
      ["parent", "o"],
    ],
  },
  zwlr_data_control_manager_v1: {
    requests: [["create_data_source", "n"], ["get_data_device", "no"], ["destroy", ""]],
    events: [],
  },
  zwlr_data_control_device_v1: {
    requests: [["set_selection", "o"], ["destroy", ""], ["set_primary_selection", "o"]],
    events: [["data_offer", "n"], ["selection", "o"], ["finished", ""], ["primary_selection", "o"]],
  },
  zwlr_data_control_source_v1: {
    requests: [["offer", "s"], ["destroy", ""]],
    events: [["send", "sh"], ["cancelled", ""]],
  },
  zwlr_data_control_offer_v1: {
    requests: [["receive", "sh"], ["destroy", ""]],
    events: [["offer", "s"]],
  },
};

/** The interface of the object an event's `n` argument creates (server-created objects). */
export const EVENT_NEW_ID: Readonly<Record<string, string>> = {
  "zwlr_foreign_toplevel_manager_v1.toplevel": "zwlr_foreign_toplevel_handle_v1",
  "zwlr_data_control_device_v1.data_offer": "zwlr_data_control_offer_v1",
};

/** zwlr_foreign_toplevel_handle_v1 states. */
export const ToplevelState = { MAXIMIZED: 0, MINIMIZED: 1, ACTIVATED: 2, FULLSCREEN: 3 } as const;

/** wl_shm formats the capture converts (little-endian 32-bit words: B, G, R, A/X bytes). */
export const ShmFormat = { ARGB8888: 0, XRGB8888: 1 } as const;

/** wl_seat capability bits. */
export const SeatCapability = { POINTER: 1, KEYBOARD: 2 } as const;
