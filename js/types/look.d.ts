// The extension's look.js, written by scripts/package-extension.mjs from
// js/badge.js's stylesheet: each state's mark and colour. For tsc
// (tsconfig.json).
/** Each badge state's mark and border colour, by state. */
export const LOOK: Record<string, { mark: string; colour: string }>;
