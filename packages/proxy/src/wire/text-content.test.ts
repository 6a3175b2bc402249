import type { JsonObject } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { textContent } from './text-content.js';

describe('textContent', () => {
  it('reads text parts as one text and puts a replacement in the first, images kept in place', () => {
    const block: JsonObject = {
      type: 'tool_result',
      content: [
        { type: 'text', text: 'a' },
        { type: 'image', source: { type: 'base64', data: 'AAAA' } },
        { type: 'text', text: 'b', cache_control: { type: 'ephemeral' } },
      ],
    };
    const content = textContent(block, 'content', 'text')!;
    expect(content.text).toBe('a\nb');
    content.replace('view');
    // The breakpoint on the dropped part moves to the part that holds the text.
    expect(block.content).toEqual([
      { type: 'text', text: 'view', cache_control: { type: 'ephemeral' } },
      { type: 'image', source: { type: 'base64', data: 'AAAA' } },
    ]);
  });

  it('replaces a string content, and has nothing to say of a result without text', () => {
    const message: JsonObject = { role: 'tool', content: 'long' };
    textContent(message, 'content', 'text')!.replace('short');
    expect(message.content).toBe('short');
    expect(textContent({ content: [{ type: 'image' }] }, 'content', 'text')).toBeUndefined();
    expect(textContent({}, 'content', 'text')).toBeUndefined();
  });
});
