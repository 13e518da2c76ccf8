/**
 * Every port in one module: the interfaces each back end implements and the neutral
 * vocabulary they speak. Prefer importing the one capability file a module needs.
 *
 * @module
 */
export * from "./accessibility.ts";
export * from "./apps.ts";
export * from "./backend.ts";
export * from "./clipboard.ts";
export * from "./cursor.ts";
export * from "./geometry.ts";
export * from "./health.ts";
export * from "./input.ts";
export * from "./perception.ts";
export * from "./screen.ts";
export * from "./system.ts";
export * from "./windows.ts";
export * from "./errors.ts";
