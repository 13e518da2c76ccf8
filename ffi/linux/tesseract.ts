/**
 * libtesseract's C API (`tesseract/capi.h`, Tesseract 4.1 and 5.x): OCR of an image
 * in memory, and a result iterator over words and text lines with their boxes.
 *
 * Debian 12 ships it as `libtesseract5` (language data in `tesseract-ocr-eng`).
 *
 * @module
 */
import { openLibrary } from "../_open.ts";

/** libtesseract symbols (capi.h section order: base API, page iterator, result iterator). */
export const TESSERACT_SYMBOLS = {
  // --- General free functions ---
  // const char* TessVersion()
  TessVersion: { parameters: [], result: "pointer" },
  // void TessDeleteText(const char* text)
  TessDeleteText: { parameters: ["pointer"], result: "void" },

  // --- Base API ---
  // TessBaseAPI* TessBaseAPICreate()
  TessBaseAPICreate: { parameters: [], result: "pointer" },
  // void TessBaseAPIDelete(TessBaseAPI* handle)
  TessBaseAPIDelete: { parameters: ["pointer"], result: "void" },
  // int TessBaseAPIInit4(TessBaseAPI* handle, const char* datapath, const char* language,
  //   TessOcrEngineMode mode, char** configs, int configs_size, char** vars_vec, char** vars_values,
  //   size_t vars_vec_size, BOOL set_only_non_debug_params)
  TessBaseAPIInit4: {
    parameters: ["pointer", "buffer", "buffer", "i32", "pointer", "i32", "buffer", "buffer", "usize", "i32"],
    result: "i32",
  },
  // BOOL TessBaseAPISetVariable(TessBaseAPI* handle, const char* name, const char* value)
  TessBaseAPISetVariable: { parameters: ["pointer", "buffer", "buffer"], result: "i32" },
  // void TessBaseAPISetPageSegMode(TessBaseAPI* handle, TessPageSegMode mode)
  TessBaseAPISetPageSegMode: { parameters: ["pointer", "i32"], result: "void" },
  // void TessBaseAPISetImage(TessBaseAPI* handle, const unsigned char* imagedata, int width, int height,
  //   int bytes_per_pixel, int bytes_per_line)   (copies the pixels)
  TessBaseAPISetImage: { parameters: ["pointer", "buffer", "i32", "i32", "i32", "i32"], result: "void" },
  // void TessBaseAPISetSourceResolution(TessBaseAPI* handle, int ppi)
  TessBaseAPISetSourceResolution: { parameters: ["pointer", "i32"], result: "void" },
  // int TessBaseAPIRecognize(TessBaseAPI* handle, ETEXT_DESC* monitor)
  // Nonblocking: recognition takes hundreds of milliseconds; the event loop keeps serving meanwhile.
  TessBaseAPIRecognize: { parameters: ["pointer", "pointer"], result: "i32", nonblocking: true },
  // TessResultIterator* TessBaseAPIGetIterator(TessBaseAPI* handle)   (caller deletes)
  TessBaseAPIGetIterator: { parameters: ["pointer"], result: "pointer" },
  // void TessBaseAPIClear(TessBaseAPI* handle)
  TessBaseAPIClear: { parameters: ["pointer"], result: "void" },
  // void TessBaseAPIEnd(TessBaseAPI* handle)
  TessBaseAPIEnd: { parameters: ["pointer"], result: "void" },

  // --- Page iterator ---
  // BOOL TessPageIteratorBoundingBox(const TessPageIterator* handle, TessPageIteratorLevel level,
  //   int* left, int* top, int* right, int* bottom)
  TessPageIteratorBoundingBox: {
    parameters: ["pointer", "i32", "buffer", "buffer", "buffer", "buffer"],
    result: "i32",
  },
  // BOOL TessPageIteratorIsAtBeginningOf(const TessPageIterator* handle, TessPageIteratorLevel level)
  TessPageIteratorIsAtBeginningOf: { parameters: ["pointer", "i32"], result: "i32" },

  // --- Result iterator ---
  // void TessResultIteratorDelete(TessResultIterator* handle)
  TessResultIteratorDelete: { parameters: ["pointer"], result: "void" },
  // TessPageIterator* TessResultIteratorGetPageIterator(TessResultIterator* handle)   (borrowed)
  TessResultIteratorGetPageIterator: { parameters: ["pointer"], result: "pointer" },
  // char* TessResultIteratorGetUTF8Text(const TessResultIterator* handle, TessPageIteratorLevel level)
  //   (caller frees with TessDeleteText)
  TessResultIteratorGetUTF8Text: { parameters: ["pointer", "i32"], result: "pointer" },
  // float TessResultIteratorConfidence(const TessResultIterator* handle, TessPageIteratorLevel level)
  TessResultIteratorConfidence: { parameters: ["pointer", "i32"], result: "f32" },
  // BOOL TessResultIteratorNext(TessResultIterator* handle, TessPageIteratorLevel level)
  TessResultIteratorNext: { parameters: ["pointer", "i32"], result: "i32" },
} as const satisfies Deno.ForeignLibraryInterface;

/** libtesseract, opened on first use (override: `CUA_DRIVER_LIB_TESSERACT`). */
export const tesseract = openLibrary(
  "tesseract",
  ["libtesseract.so.5", "libtesseract.so.4", "libtesseract.so"],
  TESSERACT_SYMBOLS,
  "libtesseract5",
);

/** TessPageIteratorLevel. */
export const PageIteratorLevel = {
  BLOCK: 0,
  PARA: 1,
  TEXTLINE: 2,
  WORD: 3,
  SYMBOL: 4,
} as const;

/** TessPageSegMode (the values the driver uses). */
export const PageSegMode = {
  AUTO: 3,
  SINGLE_BLOCK: 6,
  SINGLE_LINE: 7,
  SPARSE_TEXT: 11,
  SPARSE_TEXT_OSD: 12,
} as const;

/** TessOcrEngineMode. */
export const OcrEngineMode = {
  TESSERACT_ONLY: 0,
  LSTM_ONLY: 1,
  TESSERACT_LSTM_COMBINED: 2,
  DEFAULT: 3,
} as const;
