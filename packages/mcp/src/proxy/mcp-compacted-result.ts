/** One tool result (or resource read) the proxy rewrote to fit its budget. */
export interface McpCompactedResult {
  /** The tool's name, or `resources/read <uri>` for a resource. */
  toolName: string;
  /** UTF-8 bytes of the result as the server sent it, as JSON (base64 of images, audio and blobs aside). */
  originalBytes: number;
  /** UTF-8 bytes of the result the client got, measured the same way; at most `maxResultBytes`. */
  outputBytes: number;
  /** True when a view left something out (the full text is in its artifact, in artifact mode). */
  contentLost: boolean;
}
