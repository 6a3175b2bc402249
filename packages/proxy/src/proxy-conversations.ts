import { join } from 'node:path';
import {
  type ArtifactToolset,
  type ConversationBudget,
  type ConversationBudgetOptions,
  contentDigest,
  createConversationBudget,
  createToolResultViews,
  type JsonValue,
  type ResultProcessor,
  stringifyJsonLossless,
} from '@compaction/core';
import { createArtifactMode } from '@compaction/orchestration';

/** One conversation the proxy has seen: its store and its budget. */
export interface ProxyConversation {
  /** `c_` and 16 hex digits of a SHA-256 of the conversation's format and opening messages. */
  readonly id: string;
  /** Where its full tool results are stored: `<dir>/<id>.artifacts/`. */
  readonly artifactsDir: string;
  /** Per-result views (stored whole, a pointer and a view) held to the conversation budget. */
  readonly budget: ConversationBudget;
  /** `artifact_read` and `artifact_search` over its stored results only. */
  readonly tools: ArtifactToolset;
}

/** Settings of `createProxyConversations`. */
export interface ProxyConversationsSettings {
  /** The directory conversations are stored under. */
  dir: string;
  /** Tool results larger than this many UTF-8 bytes get a view of at most this size. */
  maxResultBytes: number;
  /** What the model sees of a stored result under its pointer line; default the structural trimmer. */
  view?: ResultProcessor;
  /** What pointer lines tell the model to read the rest with (see `createArtifactMode`). */
  pointTo: 'artifact-tools' | 'file';
  /** Budget options on top of the `COMPACTION_CONVERSATION_*` variables of `env`; `false` turns the budget off. */
  conversation: ConversationBudgetOptions | false;
  /** Environment the budget reads `COMPACTION_CONVERSATION_*` from. */
  env: Readonly<Record<string, string | undefined>>;
  /** Conversations kept in memory, least recently used dropped first (their files stay). */
  maxConversations: number;
}

/** The conversations of one proxy, found by what opens them. */
export interface ProxyConversations {
  /** The conversation whose opening is `seed` in `format`, created on first sight. */
  get(format: string, seed: JsonValue | undefined): Promise<ProxyConversation>;
}

/**
 * Keeps the proxy's conversations. A conversation is named by a hash of its opening messages,
 * which every later request repeats, so the same conversation finds the same store after a
 * restart; and since the budget decides from the results alone, a fresh instance sends the
 * same bytes. Dropping one from memory costs only recomputing its views.
 */
export function createProxyConversations(settings: ProxyConversationsSettings): ProxyConversations {
  const known = new Map<string, ProxyConversation>();
  const open = (id: string): ProxyConversation => {
    const mode = createArtifactMode({
      transcriptPath: join(settings.dir, `${id}.jsonl`),
      pointTo: settings.pointTo,
      // The agents behind a proxy read files to edit them: a result within `--max-bytes` stays
      // whole unless COMPACTION_ARTIFACT_INLINE_LIMIT asks for seed 001's inline limit.
      env: settings.env,
      ...(settings.env.COMPACTION_ARTIFACT_INLINE_LIMIT?.trim() ? {} : { inlineLimitChars: false }),
      ...(settings.view ? { view: settings.view } : {}),
    });
    const views = createToolResultViews({
      processor: mode.processor,
      maxResultBytes: settings.maxResultBytes,
    });
    const budget = createConversationBudget(views, {
      env: settings.env,
      ...(settings.conversation === false
        ? { enabled: false }
        : { ...mode.conversation, ...settings.conversation }),
    });
    return { id, artifactsDir: mode.dir, budget, tools: mode.tools };
  };
  return {
    async get(format, seed) {
      const digest = await contentDigest(
        stringifyJsonLossless([format, seed === undefined ? null : seed]),
      );
      const id = `c_${digest.slice(0, 16)}`;
      let conversation = known.get(id);
      if (conversation) known.delete(id);
      else conversation = open(id);
      known.set(id, conversation);
      while (known.size > settings.maxConversations) known.delete(known.keys().next().value!);
      return conversation;
    },
  };
}
