
/** A place in the plan's text: 1-based line and column (in characters, validator.md §7) and the
 * offset from the start of the text in UTF-16 code units (a JS string index, as
 * `setSelectionRange` takes it). */
export interface TextPosition {
  line: number;
  column: number;
  offset: number;
}

/** Where a value is in the plan's text: from its first character to just after its last
 * (`end` is exclusive). `missing` is true when the path leads to no value (a `required` issue's
 * member, an index past the end): then the span is that of `found`, the deepest value on the
 * path. */
export interface ValueSpan {
  start: TextPosition;
  end: TextPosition;
  missing: boolean;
  found: string;
}
