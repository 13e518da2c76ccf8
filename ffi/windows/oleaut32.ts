/**
 * oleaut32: BSTR strings, VARIANTs and SAFEARRAYs, the value types of COM automation
 * interfaces (UI Automation properties, MSAA).
 *
 * @module
 */
import { openLibrary } from "../_open.ts";

/** oleaut32 symbols used by the driver. */
export const OLEAUT32_SYMBOLS = {
  // BSTR SysAllocString(const OLECHAR *psz)
  SysAllocString: { parameters: ["buffer"], result: "pointer" },
  // void SysFreeString(BSTR bstrString)
  SysFreeString: { parameters: ["pointer"], result: "void" },
  // UINT SysStringLen(BSTR pbstr)
  SysStringLen: { parameters: ["pointer"], result: "u32" },
  // HRESULT VariantClear(VARIANTARG *pvarg)
  VariantClear: { parameters: ["buffer"], result: "i32" },
  // HRESULT SafeArrayGetLBound(SAFEARRAY *psa, UINT nDim, LONG *plLbound)
  SafeArrayGetLBound: { parameters: ["pointer", "u32", "buffer"], result: "i32" },
  // HRESULT SafeArrayGetUBound(SAFEARRAY *psa, UINT nDim, LONG *plUbound)
  SafeArrayGetUBound: { parameters: ["pointer", "u32", "buffer"], result: "i32" },
  // HRESULT SafeArrayAccessData(SAFEARRAY *psa, void **ppvData)
  SafeArrayAccessData: { parameters: ["pointer", "buffer"], result: "i32" },
  // HRESULT SafeArrayUnaccessData(SAFEARRAY *psa)
  SafeArrayUnaccessData: { parameters: ["pointer"], result: "i32" },
  // HRESULT SafeArrayDestroy(SAFEARRAY *psa)
  SafeArrayDestroy: { parameters: ["pointer"], result: "i32" },
  // SAFEARRAY *SafeArrayCreateVector(VARTYPE vt, LONG lLbound, ULONG cElements)
  SafeArrayCreateVector: { parameters: ["u16", "i32", "u32"], result: "pointer" },
} as const satisfies Deno.ForeignLibraryInterface;

/** oleaut32.dll, opened on first use. */
export const oleaut32 = openLibrary("oleaut32", ["oleaut32.dll"], OLEAUT32_SYMBOLS);

/** VARIANT types (VARENUM). */
export const VT = {
  EMPTY: 0,
  NULL: 1,
  I2: 2,
  I4: 3,
  R4: 4,
  R8: 5,
  BSTR: 8,
  DISPATCH: 9,
  ERROR: 10,
  BOOL: 11,
  UNKNOWN: 13,
  I1: 16,
  UI1: 17,
  UI2: 18,
  UI4: 19,
  I8: 20,
  UI8: 21,
  INT: 22,
  UINT: 23,
  ARRAY: 0x2000,
} as const;
/** A VARIANT is 24 bytes on x64: vt@0 (u16), the value at 8. */
export const VARIANT_SIZE = 24;
