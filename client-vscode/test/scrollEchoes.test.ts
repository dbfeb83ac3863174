import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KEPT, ScrollEchoes, SETTLE_MS } from '../src/scrollEchoes';

describe('ScrollEchoes', () => {
  const editor = {};

  it('recognises the lines asked for however late they are reported, in a burst', () => {
    const echoes = new ScrollEchoes<object>();
    for (let top = 1; top <= 20; top++) echoes.expect(editor, top, 0);
    // Seen under load: the reports of a held key arrive a second later.
    for (let top = 1; top <= 20; top++) assert.equal(echoes.isEcho(editor, top, 1_000), true, `line ${top}`);
  });

  it('takes a line reported after the requests are done for the user scrolling', () => {
    const echoes = new ScrollEchoes<object>();
    echoes.expect(editor, 5, 0);
    assert.equal(echoes.isEcho(editor, 5, 10), true);
    assert.equal(echoes.isEcho(editor, 5, 1_000), false, 'the same line again, later: the request was used');
  });

  it('skips reports the editor left out, and forgets older requests with them', () => {
    const echoes = new ScrollEchoes<object>();
    for (const top of [3, 4, 5]) echoes.expect(editor, top, 0);
    assert.equal(echoes.isEcho(editor, 5, 1_000), true);
    assert.equal(echoes.isEcho(editor, 3, 1_000), false);
  });

  it('counts any position shortly after a request as ours (a reveal that stops at the document end)', () => {
    const echoes = new ScrollEchoes<object>();
    echoes.expect(editor, 190, 0);
    assert.equal(echoes.isEcho(editor, 180, SETTLE_MS - 1), true);
    assert.equal(echoes.isEcho(editor, 170, SETTLE_MS + 1), false);
  });

  it('remembers the latest requests only, as some are never reported', () => {
    const asked = (): ScrollEchoes<object> => {
      const echoes = new ScrollEchoes<object>();
      for (let top = 0; top < 10 * KEPT; top++) echoes.expect(editor, top, 0);
      return echoes;
    };
    assert.equal(asked().isEcho(editor, 9 * KEPT, 1_000), true, 'the oldest kept');
    assert.equal(asked().isEcho(editor, 9 * KEPT - 1, 1_000), false, 'one older');
  });

  it('knows nothing of editors it was not asked to scroll', () => {
    assert.equal(new ScrollEchoes<object>().isEcho(editor, 1, 0), false);
  });
});
