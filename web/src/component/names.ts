// names.ts - what a valid name is, in one place per kind (the same rules as
// the C++ core's laige/names.h, so a name accepted here is accepted there):
// system names (and dependsOn entries) and component names. Lengths are in
// UTF-8 bytes, as the core stores them. docs/typescript.md#names.
import { invalid } from '../base/errors.js';
import { describe } from '../base/describe.js';

/** The longest system name, in UTF-8 bytes. */
export const MAX_SYSTEM_NAME_BYTES = 63;
/** The longest component name, in UTF-8 bytes. */
export const MAX_COMPONENT_NAME_BYTES = 63;

/** UTF-8 byte length of `s` (lone surrogates count as the 3 bytes U+FFFD takes). */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

// Control characters: U+0000..U+001F and U+007F (NUL, tab, newline, ...).
const CONTROL = /[\u0000-\u001f\u007f]/;

function commonProblem(name: string, maxBytes: number): string | null {
  if (name.length === 0) return 'empty';
  if (utf8Length(name) > maxBytes) return 'too_long';
  if (CONTROL.test(name)) return 'control_char';
  if (name.startsWith(' ') || name.endsWith(' ')) return 'surrounding_space';
  return null;
}

/**
 * Why `name` is not a valid system name, or null: 1..63 UTF-8 bytes, no
 * control character (NUL, newline, tab, ...), no comma, no space at either
 * end. Reasons: 'not_a_string', 'empty', 'too_long', 'control_char', 'comma',
 * 'surrounding_space'.
 */
export function systemNameProblem(name: unknown): string | null {
  if (typeof name !== 'string') return 'not_a_string';
  return commonProblem(name, MAX_SYSTEM_NAME_BYTES) ?? (name.includes(',') ? 'comma' : null);
}

/**
 * Why `name` is not a valid component name, or null: 1..63 UTF-8 bytes, no
 * control character, no space at either end (so never only spaces).
 * Reasons: 'not_a_string', 'empty', 'too_long', 'control_char',
 * 'surrounding_space'.
 */
export function componentNameProblem(name: unknown): string | null {
  if (typeof name !== 'string') return 'not_a_string';
  return commonProblem(name, MAX_COMPONENT_NAME_BYTES);
}

const WORDS: Readonly<Record<string, string>> = {
  not_a_string: 'is not a string', empty: 'is empty', too_long: 'is longer than 63 UTF-8 bytes',
  control_char: 'holds a control character (NUL, newline, tab, ...)', comma: 'holds a comma',
  surrounding_space: 'starts or ends with a space',
};

/**
 * @internal Throws `reason` (e.g. 'name_invalid') for a name that breaks its
 * rule. Fields: `where`, `problem` (which rule), `type` (the JS type); for a
 * string also `name` and `length` (UTF-8 bytes), and `max_length` when it is
 * too long, the same `length` / `max_length` the core gives
 * (docs/errors.md#reason-component_name_invalid).
 */
export function checkName(where: string, what: string, name: unknown, problem: string | null, reason: string,
  maxBytes = MAX_SYSTEM_NAME_BYTES): void {
  if (problem === null) return;
  const fields: Record<string, string | number> = { where, problem, type: typeof name };
  if (typeof name === 'string') {
    fields.name = name;
    fields.length = utf8Length(name);
    if (problem === 'too_long') fields.max_length = maxBytes;
  }
  throw invalid(`${where}: the ${what} ${describe(name)} ${WORDS[problem] ?? 'is invalid'} (docs/typescript.md#names)`, reason, fields);
}
