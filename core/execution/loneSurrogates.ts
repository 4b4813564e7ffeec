// An editor's text handed to esbuild with its lone surrogates kept: esbuild reads its input as
// UTF-8, where a lone surrogate has no encoding and becomes U+FFFD, so `"\ud800"` and `"\udc00"`
// written raw in a buffer ran as the same string. Written as `\uXXXX` escapes they stay apart.

const LONE_SURROGATE = /\p{Surrogate}/gu;

/**
 * The text with each lone surrogate (a surrogate that is not half of a pair) written as its
 * `\uXXXX` escape: the same string inside a string, template or regular expression literal, a
 * comment unchanged in meaning. A file on disk cannot hold one (UTF-8), so only buffers have any.
 */
export function escapeLoneSurrogates(text: string): string {
  return text.replace(LONE_SURROGATE, (char) => `\\u${char.charCodeAt(0).toString(16)}`);
}

/** Each text of an overlay with its lone surrogates escaped; the same object when none has any. */
export function keepLoneSurrogates(sources: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  const kept = Object.entries(sources).map(([file, text]) => [file, escapeLoneSurrogates(text)] as const);
  return kept.every(([file, text]) => text === sources[file]) ? sources : Object.fromEntries(kept);
}
