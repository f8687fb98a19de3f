/**
 * Texts of pieces that an emitted file may already hold. With the incremental cache, a piece's text (a
 * registration, a `describe`, a card) is not kept in the cache: the file the last run wrote holds it. An
 * emitter gets a short marker in its place, builds its file around it as around the text, and
 * `write/splice.ts` later puts the text in: the freshly rendered one, or the bytes the old file holds
 * under the same key. A file whose literal text and markers are what the last run had is not built at all.
 *
 * A marker is `\uE000`, a nonce drawn for the run, the text's key, then, after `~`, the operations applied
 * to it since (`c`: its last character dropped, `t`: trailing white space trimmed), and `\uE001`. With the
 * nonce taken out, a file's text with its markers is the same from run to run exactly when its literal text
 * and its texts are, so it is compared (hashed) as it is. No manifest can forge a marker (it does not know
 * the nonce), and the two operations emitters apply to joined texts are the only ones a marker follows;
 * anything else that cut a marker leaves a lone `\uE000`, and the run then emits without markers
 * (`write/splice.ts`).
 */
import { randomBytes } from 'node:crypto';

export const OPEN = '\uE000';
export const CLOSE = '\uE001';

/** The texts of one run, handed out as markers. */
export class TextRefs {
  /** Letters only, never in a key: a marker of this run starts with it. */
  readonly nonce = randomBytes(6).toString('hex').replace(/[0-9]/g, (d) => 'ghijklmnop'[Number(d)]!);
  /** The texts rendered this run, by key (a key always stands for the same text). */
  readonly texts = new Map<string, string>();

  /**
   * A marker for the text under `key` (`text`: rendered this run; undefined: the last run's file has it).
   * Keys hold letters, digits, `_ - .` only. A text with nothing but white space, or a single character,
   * is given as it is (see `markable`): emitters test such texts for emptiness, which a marker would hide.
   */
  marker(key: string, text: string | undefined): string {
    if (text !== undefined) this.texts.set(key, text);
    return `${OPEN}${this.nonce}${key}${CLOSE}`;
  }

  /** A marker for a list of pieces (emit/lists.ts), whose texts write/splice.ts puts in. */
  listMarker(key: string): string {
    return `${OPEN}${this.nonce}${key}${CLOSE}`;
  }

  /** `TextOps` for texts that may end in one of this run's markers. */
  readonly ops: TextOps = {
    chop: (text) => (this.endsInMarker(text) ? this.withOp(text, 'c') : text.slice(0, -1)),
    tidy: (text) => {
      const t = text.trimEnd();
      return `${this.endsInMarker(t) ? this.withOp(t, 't') : t}\n`;
    },
  };

  /** `text`, which ends in a marker, with `op` recorded in that marker. */
  private withOp(text: string, op: string): string {
    const at = text.lastIndexOf(OPEN);
    return `${text.slice(0, -1)}${text.includes('~', at) ? '' : '~'}${op}${CLOSE}`;
  }

  /** True when `text` ends in a marker of this run (the operations that follow a marker apply to its text). */
  private endsInMarker(text: string): boolean {
    if (!text.endsWith(CLOSE)) return false;
    const at = text.lastIndexOf(OPEN);
    return at >= 0 && text.startsWith(this.nonce, at + 1) && /^[\w.-]+(~[ct]*)?$/.test(text.slice(at + 1 + this.nonce.length, -1));
  }
}

/** True when a rendered text may stand behind a marker (see `TextRefs.marker`). */
export function markable(text: string): boolean {
  return text.length >= 2 && /\S/.test(text);
}

/** What emitters do to texts that may hold markers: `chop` and `tidy` keep a trailing marker whole. */
export interface TextOps {
  /** `text.slice(0, -1)`. */
  chop(text: string): string;
  /** The file as the template laid it out, ending in exactly one newline (`${text.trimEnd()}\n`). */
  tidy(text: string): string;
}

/** The operations on texts that hold no marker (a run without the incremental cache). */
export const PLAIN_TEXT: TextOps = {
  chop: (text) => text.slice(0, -1),
  tidy: (text) => `${text.trimEnd()}\n`,
};

/** A marker's text after the operations it records (`c`, `t`, in order). */
export function applyOps(text: string, ops: string): string {
  let t = text;
  for (const op of ops) t = op === 'c' ? t.slice(0, -1) : t.trimEnd();
  return t;
}
