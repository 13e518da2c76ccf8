/**
 * Apps on Wayland: the Linux app back end (processes from /proc, XDG desktop entries, launch and
 * kill), reused as it is; mod.ts gives launched apps the session's environment.
 *
 * @module
 */
export { LinuxApps, type LinuxAppsOptions } from "../linux/apps.ts";
