/**
 * What every part of the macOS back end shares: the injected framework tables and
 * the CoreFoundation and Objective-C layers over them.
 *
 * @module
 */
import { CoreFoundation } from "./cf.ts";
import type { Frameworks } from "./frameworks.ts";
import { ObjcRuntime } from "./objc_runtime.ts";

/** The frameworks and the helpers over them. */
export class DarwinContext {
  readonly cf: CoreFoundation;
  readonly objc: ObjcRuntime;

  constructor(readonly fw: Frameworks) {
    this.cf = new CoreFoundation(fw);
    this.objc = new ObjcRuntime(fw);
  }

  /** Releases what the helpers keep (interned strings). */
  close(): void {
    this.cf.close();
  }
}
