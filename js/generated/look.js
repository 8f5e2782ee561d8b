// Written by `cargo xtask generate`: do not edit.
/** Each badge state's mark and border colour, by state. */
/** @type {Record<string, { mark: string, colour: string }>} */
export const LOOK = {"checking":{"colour":"#8a8f98","mark":"…"},"human-backed":{"colour":"#1f7a3f","mark":"✓"},"revoked":{"colour":"#b42318","mark":"✕"},"unknown":{"colour":"#8a8f98","mark":"?"}};
