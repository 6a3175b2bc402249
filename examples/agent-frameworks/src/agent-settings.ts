/** Where an example agent's model is and where its session's artifacts go. */
export interface AgentSettings {
  /** An OpenAI-compatible API: the local scripted model offline, else `OPENAI_BASE_URL` or OpenAI. */
  baseURL?: string;
  apiKey: string;
  /** The chat model's name. */
  model: string;
  /** The session transcript; full results go to `<stem>.artifacts/` beside it. */
  transcriptPath: string;
}
