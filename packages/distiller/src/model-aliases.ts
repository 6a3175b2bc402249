/** The portable model aliases distill calls use. */
export type ModelAlias = 'fast' | 'default' | 'smart';

/** Concrete model per alias, for one provider. */
export type ModelAliasTable = Readonly<Record<ModelAlias, string>>;

/**
 * Built-in alias tables. `fast` is each provider's efficient tier, which distillation uses by
 * default. Override per client with its `models` setting.
 */
export const DEFAULT_MODEL_ALIASES: Readonly<Record<'openai' | 'anthropic', ModelAliasTable>> = {
  openai: { fast: 'gpt-5-mini', default: 'gpt-5', smart: 'gpt-5' },
  anthropic: {
    fast: 'claude-haiku-4-5',
    default: 'claude-sonnet-4-5',
    smart: 'claude-opus-4-1',
  },
};

/** The concrete model for `model`: an alias resolved through `table`, anything else as given. */
export function resolveModelAlias(model: string, table: Partial<ModelAliasTable>): string {
  return Object.hasOwn(table, model) ? (table[model as ModelAlias] ?? model) : model;
}
