// Written by `cargo xtask generate`: do not edit.
/** The script tag's wasm, which embed.js loads from beside itself ([embed-build] out-name). */
export const EMBED_WASM = "x402_verdict_embed_bg.wasm";
/** The script tag's wasm that pins roots, which embed.js loads instead when a badge pins one ([embed-roots-build] out-name). */
export const EMBED_ROOTS_WASM = "x402_verdict_embed_roots_bg.wasm";
