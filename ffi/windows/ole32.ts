/**
 * ole32: COM apartments, object creation and task-memory release.
 *
 * @module
 */
import { openLibrary } from "../_open.ts";

/** ole32 symbols used by the driver. */
export const OLE32_SYMBOLS = {
  // HRESULT CoInitializeEx(LPVOID pvReserved, DWORD dwCoInit)
  CoInitializeEx: { parameters: ["pointer", "u32"], result: "i32" },
  // void CoUninitialize(void)
  CoUninitialize: { parameters: [], result: "void" },
  // HRESULT CoCreateInstance(REFCLSID rclsid, LPUNKNOWN pUnkOuter, DWORD dwClsContext, REFIID riid, LPVOID *ppv)
  CoCreateInstance: { parameters: ["buffer", "pointer", "u32", "buffer", "buffer"], result: "i32" },
  // void CoTaskMemFree(LPVOID pv)
  CoTaskMemFree: { parameters: ["pointer"], result: "void" },
} as const satisfies Deno.ForeignLibraryInterface;

/** ole32.dll, opened on first use. */
export const ole32 = openLibrary("ole32", ["ole32.dll"], OLE32_SYMBOLS);

/** CoInitializeEx apartment models. */
export const COINIT = { MULTITHREADED: 0x0, APARTMENTTHREADED: 0x2 } as const;
/** CLSCTX values. */
export const CLSCTX = { INPROC_SERVER: 0x1, LOCAL_SERVER: 0x4 } as const;
