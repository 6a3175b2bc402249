interface NodeEvents {
  setMaxListeners(count: number, ...targets: EventTarget[]): void;
}

/**
 * Lets `signal` take `count` listeners without Node's MaxListenersExceededWarning. Node is
 * reached through `process.getBuiltinModule` (20.16 and later), not an import of `node:events`,
 * so the distiller bundles for browsers and edge runtimes, which have no such warning.
 */
export function raiseListenerLimit(signal: AbortSignal, count: number): void {
  const runtime = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } })
    .process;
  (runtime?.getBuiltinModule?.('node:events') as NodeEvents | undefined)?.setMaxListeners(
    count,
    signal,
  );
}
