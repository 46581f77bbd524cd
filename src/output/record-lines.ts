// Records as lines on stdout, gathered and written in batches: a list of thousands goes in a few
// writes, and each batch as soon as the run is idle, so a record someone waits for is not held.

export interface RecordSink<T> {
  /** Gathers one record's line. */
  write(record: T): void;
  /** Writes what is still gathered. */
  end(): void;
}

/** `write` takes a batch of whole lines; `line` makes the text of the record at `index` (its newline included). */
export function recordLines<T>(write: (text: string) => void, line: (record: T, index: number) => string): RecordSink<T> {
  let pending = '';
  let count = 0;
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    const text = pending;
    pending = '';
    if (text) write(text);
  };
  return {
    write(record) {
      pending += line(record, count++);
      if (pending.length > 64 * 1024) flush();
      else if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    end: flush,
  };
}
