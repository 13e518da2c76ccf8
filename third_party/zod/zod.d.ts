// The vendored zod.js's types: npm zod 4.6.7's own (scripts/vendor_zod.ts bundles a subset of that version).
export { z } from "npm:zod@4.6.7";
