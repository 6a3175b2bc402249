import { basename, dirname, extname, join } from 'node:path';

/** The session name of a transcript: its file name without the extension (`run-1.jsonl` → `run-1`). */
export function transcriptStem(transcriptPath: string): string {
  const name = basename(transcriptPath);
  const extension = extname(name);
  return extension && extension !== name ? name.slice(0, -extension.length) : name;
}

/** `<transcript-stem>.artifacts/` in the directory of the transcript. */
export function artifactDirFor(transcriptPath: string): string {
  return join(dirname(transcriptPath), `${transcriptStem(transcriptPath)}.artifacts`);
}
