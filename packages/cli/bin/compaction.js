#!/usr/bin/env node
import module from 'node:module';

// Node ≥ 22.8 keeps the V8 code of the modules a command loads in an on-disk cache, so every
// call after the first skips most of their compilation: a hook calls `compaction trim` often.
// The cache is Node's own: NODE_COMPILE_CACHE names its directory (default
// <os.tmpdir()>/node-compile-cache, entries keyed by file and content), NODE_DISABLE_COMPILE_CACHE=1
// turns it off, and a cache that cannot be written is skipped silently. Older Node: no cache.
// Called before the CLI is imported, which is why that import is dynamic.
module.enableCompileCache?.();
// The bundle (scripts/bundle-bin.mjs): src/bin.ts with the Compaction packages inlined and split
// per command, so a command reads a few files rather than every module of the packages it uses.
await import('../dist/bundle/compaction.js');
